"""Hidden tests beside the kernel: data on the wire (posenc_grader.wire), and the tests' own run
(posenc_grader.hidden). Whole notebooks are graded through the same code in tests/test_grading.py."""

from __future__ import annotations

import json
import math

import nbformat
import numpy as np
import pytest
import torch

from posenc_grader import hidden, wire


class Foo:
    """Not wire data, however number-like it pretends to be."""

    def __float__(self):
        return 1.0


def across(value):
    """``value`` packed on one side of the wall, sent as JSON text, and unpacked on the other."""
    return wire.unpack(json.loads(json.dumps(wire.pack(value))))


@pytest.mark.parametrize("value", [None, True, False, 0, -7, 2**80, "text", 0.1, -0.0, 1e308, 1 + 2j,
                                   [1, [2.5, "a"]], (1, (2.0, None)), [], ()])
def test_python_values_cross_the_wall_unchanged(value):
    got = across(value)
    assert got == value and type(got) is type(value)


def test_floats_keep_every_bit_nan_and_infinities_included():
    got = across([math.nan, math.inf, -math.inf, 5e-324])
    assert math.isnan(got[0]) and got[1:] == [math.inf, -math.inf, 5e-324]


@pytest.mark.parametrize("dtype", ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                                   "float16", "float32", "float64", "complex64", "complex128", ">f8", ">i4"])
def test_numpy_arrays_cross_as_fresh_arrays_of_their_values_and_dtype(dtype):
    array = (np.arange(12).reshape(3, 4) % 5).astype(dtype)
    got = across(array)
    assert type(got) is np.ndarray and got.dtype == array.dtype.newbyteorder("=") and np.array_equal(got, array)
    got[0, 0] = 1  # writable: a copy, not a view of the message


def test_scalars_subclasses_and_tensors_cross_as_plain_numbers_and_arrays():
    assert across(np.float32(0.5)) == 0.5 and type(across(np.float32(0.5))) is float
    assert across(np.bool_(True)) is True and type(across(np.int64(3))) is int
    assert type(across(np.matrix([[1.0, 2.0]]))) is np.ndarray
    assert np.array_equal(across(torch.ones(2, 3, requires_grad=True)), np.ones((2, 3), dtype=np.float32))
    assert across(torch.ones(2, dtype=torch.bfloat16)).dtype == np.float32
    assert across(np.zeros((0, 3))).shape == (0, 3) and across(np.array(2.5)).shape == ()
    assert type(across(np.longdouble(0.5))) is float and across(np.clongdouble(1j)) == 1j  # what answer_as accepts
    assert across(np.ones(2, dtype=np.longdouble)).dtype == np.float64


@pytest.mark.parametrize("value,kind", [
    (Foo(), "Foo"), ({"a": 1}, "dict"), (np.array([Foo()], dtype=object), "array of object values"),
    (np.array(["a"]), "array of <U1 values"), (np.datetime64("2026-01-01"), "datetime64"), ({1, 2}, "set"),
    ([Foo()], "Foo"), (print, "builtin_function_or_method"),
])
def test_anything_else_is_not_plain_and_named(value, kind):
    with pytest.raises(wire.NotWireData) as refused:
        wire.pack(value)
    assert kind in str(refused.value)


@pytest.mark.parametrize("data", [
    {"object": 1}, {"array": "AAAA", "dtype": "|O", "shape": [1]}, {"array": "AAAA", "dtype": "<f8", "shape": [2]},
    {"array": "AAAAAAAAAAA=", "dtype": "<f8", "shape": "1"}, {"array": "AAAAAAAAAAA=", "dtype": "<f8", "shape": [-1]},
    {"array": "not base64!", "dtype": "<f8", "shape": [1]}, {"tuple": "abc"}, {"float": "0x1p0", "x": 1},
    1.5, {"__reduce__": "os.system"}, {"array": "AAAAAAAAAAA=", "dtype": "<f8", "shape": [10**30, 0]},
])
def test_unpacking_refuses_whatever_pack_cannot_have_made(data):
    with pytest.raises(ValueError):
        wire.unpack(data)


def kernel(functions: dict):
    """A stand-in for the kernel's side of :func:`posenc_grader.hidden.run`, in this process (no wall)."""
    def call(name, request):
        return json.loads(json.dumps(wire.answer(functions, name, request)))
    return call


def student_rotation(angle):
    if angle > 10:
        raise ValueError(f"angle {angle} is too large")
    return np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])


HIDDEN = """
from math import isclose
for angle in np.linspace(-3, 3, 7):
    got = rotation(angle)
    assert len(got) == 2 and abs(got[1, 0] - np.sin(angle)) < 1e-9, "rotation(angle) should turn by angle"
    assert isclose(float(np.linalg.det(got)), 1.0), "a rotation keeps areas"
try:
    rotation(angle=11.0)
except ValueError:
    pass
"""


def test_hidden_tests_in_ordinary_python_pass_on_a_right_answer():
    assert hidden.run(HIDDEN, ["rotation"], kernel({"rotation": student_rotation})) is None


def test_an_error_of_the_hidden_tests_own_code_shows_its_type_and_message_and_none_of_its_code():
    """(What a failed assertion shows: test_a_failed_assertion_shows_its_message_never_the_values_it_compares.)"""
    assert hidden.run("want = 1.0\nx = [want][3]", [], kernel({})) == ("IndexError", "list index out of range")


def test_what_the_answer_raises_is_raised_again_by_name_and_what_it_returns_is_judged_by_kind():
    raised = hidden.run("rotation(20.0)", ["rotation"], kernel({"rotation": student_rotation}))
    assert raised == ("ValueError", "rotation raised ValueError: angle 20.0 is too large")
    odd = hidden.run("rotation(1.0)", ["rotation"], kernel({"rotation": lambda angle: Foo()}))
    assert odd.ename == "AssertionError" and "rotation returned a Foo, expected numbers" in odd.message
    singular = kernel({"rotation": lambda angle: np.linalg.inv(np.zeros((2, 2)))})
    unknown = hidden.run("rotation(1.0)", ["rotation"], singular)
    assert unknown == ("LinAlgError", "rotation raised LinAlgError: Singular matrix")
    sent = hidden.run("rotation(print)", ["rotation"], kernel({"rotation": student_rotation}))
    assert sent.ename == "TypeError" and "only numbers, text, arrays" in sent.message
    exited = hidden.run("rotation(1.0)", ["rotation"], kernel({"rotation": lambda angle: exit(3)}))
    assert exited == ("SystemExit", "rotation raised SystemExit: 3")
    assert hidden.run("rotation(1.0)", ["rotation"], kernel({})).ename == "NameError"


def test_a_stopped_call_ends_the_hidden_tests_whatever_they_catch():
    def timed_out(name, request):
        raise hidden.Stop("CellTimeoutError", f"{name} ran past the time limit of 15 s")

    tests = "try:\n    rotation(1.0)\nexcept Exception:\n    pass\nrotation(2.0)\n"
    stopped = hidden.run(tests, ["rotation"], timed_out)
    assert stopped == ("CellTimeoutError", "rotation ran past the time limit of 15 s")


def test_only_the_answer_functions_come_from_the_kernel():
    failure = hidden.run("assert math.pi > 3, 'pi'", ["rotation"], kernel({"rotation": student_rotation}))
    assert failure == ("NameError", "name 'math' is not defined")
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("def rotation(angle):\n    def turn():\n        pass\n\ndef helper():\n    pass",
                                  metadata={"nbgrader": {"solution": True, "grade_id": "a"}}),
        nbformat.v4.new_code_cell("def not_an_answer():\n    pass"),
        nbformat.v4.new_code_cell("def broken(:", metadata={"nbgrader": {"solution": True, "grade_id": "b"}})])
    assert hidden.answer_functions(nb) == ["rotation", "helper"]


def test_a_test_cell_splits_into_its_visible_and_hidden_parts():
    source = "check(f)\n### BEGIN HIDDEN TESTS\nassert f(1) == 2, 'f doubles'\n### END HIDDEN TESTS\n"
    assert hidden.split(source) == ("check(f)\n", "\nassert f(1) == 2, 'f doubles'\n")
    assert hidden.split("check(f)") == ("check(f)", "")


STYLES = {  # one failing hidden test per style, each saying "f doubles its input"
    "assert": "assert np.allclose(f(x), want), 'f doubles its input'",
    "np.testing": "np.testing.assert_allclose(f(x), want, err_msg='f doubles its input')",
    "imported": "from numpy.testing import assert_array_equal\n"
                "assert_array_equal(f(x), want, err_msg='f doubles its input')",
    "pytest.approx": "import pytest\nassert list(f(x)) == pytest.approx(list(want)), 'f doubles its input'",
    "helper": "def same(got, expected):\n    np.testing.assert_allclose(got, expected, err_msg='f doubles its input')\n"
              "same(f(x), want)",
    "torch.testing": "import torch\ntorch.testing.assert_close(torch.tensor(f(x)), torch.tensor(want), "
                     "msg='f doubles its input')",
}


@pytest.mark.parametrize("style", sorted(STYLES))
def test_a_failed_assertion_shows_its_message_never_the_values_it_compares(style):
    tests = f"x = np.array([0.0617283945, 4.938271605])\nwant = 2 * x + 1e-3\n{STYLES[style]}"
    failure = hidden.run(tests, ["f"], kernel({"f": lambda x: np.asarray(x) * 2}))
    assert failure == ("AssertionError", "f doubles its input")
    assert hidden.unsaid(tests) == []
    silent = hidden.run(tests.replace(", err_msg='f doubles its input'", "").replace(", 'f doubles its input'", "")
                        .replace(", msg='f doubles its input'", ""), ["f"], kernel({"f": lambda x: np.asarray(x) * 2}))
    assert silent == ("AssertionError", "a hidden test failed")


def test_every_assertion_without_a_message_is_found_at_once_in_every_style():
    tests = ("assert f(1) == 2\n"
             "np.testing.assert_allclose(f(1), 2)\n"
             "import pytest\nassert f(1) == pytest.approx(2)\n"
             "def helper(got):\n    assert got > 0\n    np.testing.assert_array_equal(got, 2, 'positional, not seen')\n"
             "helper(f(1))\n"
             "assert f(1) == 2, 'said'\nnp.testing.assert_allclose(f(1), 2, err_msg='said')\n")
    assert hidden.unsaid(tests) == [1, 2, 4, 6, 7]
