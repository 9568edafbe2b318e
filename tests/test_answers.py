"""The one rule for answers (posenc.book.answers): the kinds accepted, their plain values, how close is right.

The same code runs inside every hidden test (tests/test_exercises.py checks the copy), so what is
asserted here about ``plain`` and ``near`` holds for grading too.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest
import torch

from posenc.book.answers import TOL, near, plain
from posenc.book.selfcheck import ch04 as selfcheck
from posenc.book.selfcheck.checking import SelfCheckFailed


class Foo:
    """Not an answer, however number-like it pretends to be."""

    def __float__(self):
        return 1.0


class Trap(np.ndarray):
    """An ndarray whose Python methods must never run while it is converted."""

    def __getitem__(self, key):
        raise RuntimeError("__getitem__ was called")

    def tolist(self):
        raise RuntimeError("tolist was called")

    def __array_finalize__(self, obj):
        if getattr(sys, "_trap_armed", False):
            raise RuntimeError("__array_finalize__ was called")


class LyingClass:
    """Claims to be a float through __class__."""

    @property
    def __class__(self):
        return float

    def __repr__(self) -> str:  # the test's id: the same in every process (pytest-xdist compares them)
        return "LyingClass()"


@pytest.mark.parametrize("value,shape,expected", [
    (2, (), 2), (2.5, (), 2.5), (1 + 2j, (), 1 + 2j),
    (np.float64(2.5), (), 2.5), (np.float32(0.5), (), 0.5), (np.int64(3), (), 3), (np.array(1.5), (), 1.5),
    (torch.tensor(0.25), (), 0.25),
    (np.array([[1.0, 2.0], [3.0, 4.0]]), (2, 2), [[1.0, 2.0], [3.0, 4.0]]),
    (np.array([1, 2], dtype=np.int32), (2,), [1, 2]),
    (np.array([1 + 1j]), (1,), [1 + 1j]),
    (np.matrix([[1, 0], [0, 1]]), (2, 2), [[1, 0], [0, 1]]),
    (np.ones((2, 2), dtype=np.float32), (2, 2), [[1.0, 1.0], [1.0, 1.0]]),
    (torch.ones(2, 3, requires_grad=True), (2, 3), [[1.0] * 3] * 2),
    (True, None, True), (np.bool_(False), None, False), (np.array(True), None, True),
])
def test_every_kind_the_self_checks_accept_becomes_plain_python_values(value, shape, expected):
    got = plain("f", value, shape)
    assert got == expected
    flat = got if isinstance(got, list) else [got]
    while flat and isinstance(flat[0], list):
        flat = [x for row in flat for x in row]
    assert all(type(x) in (int, float, complex, bool) for x in flat)


@pytest.mark.parametrize("value,shape,words", [
    (Foo(), (), "returned a Foo, expected a number"),
    (LyingClass(), (), "returned a LyingClass, expected a number"),
    ([1.0, 2.0], (2,), "returned a list, expected an array of shape (2,)"),
    ("1.0", (), "returned a str"),
    (None, (2, 2), "returned a NoneType, expected an array of shape (2, 2)"),
    (np.array([Foo(), Foo()], dtype=object), (2,), "returned Foo values"),
    (np.array(["a", "b"]), (2,), "returned str values"),
    (np.ones(3), (2,), "of another shape, expected an array of shape (2,)"),
    (np.ones((2, 2)), (), "ndarray of another shape, expected a number"),
    (np.array([True, False]), (2,), "returned bool values"),
    (1.0, None, "expected True or False"),
])
def test_anything_else_is_refused_with_a_message_that_names_it(value, shape, words):
    with pytest.raises(AssertionError, match="^f ") as refused:
        plain("f", value, shape)
    assert words in str(refused.value)


def test_conversion_never_calls_a_method_the_answer_defines():
    answer = np.arange(4.0).reshape(2, 2).view(Trap)
    sys._trap_armed = True
    try:
        assert plain("f", answer, (2, 2)) == [[0.0, 1.0], [2.0, 3.0]]
    finally:
        sys._trap_armed = False


def test_the_tolerance_is_relative_and_fit_for_float32():
    x = np.linspace(-50, 50, 1001)
    assert all(near(float(np.float32(np.sin(np.float32(v)))), float(np.sin(v))) for v in x)
    assert near(10000.0 * (1 + 0.5 * TOL), 10000.0) and not near(10000.0 * (1 + 2 * TOL), 10000.0)
    assert near(0.5 * TOL, 0.0) and not near(2 * TOL, 0.0)
    assert not near(float("nan"), 1.0) and not near(float("inf"), 1.0)
    assert near(1.0 + 1e-9j, 1.0) and not near(1.0 + 0.1j, 1.0)
    assert near(3.0 * TOL, 0.0, 4.0)


def test_self_checks_accept_and_refuse_the_same_kinds():
    def as_matrix(angle):
        c, s = np.cos(angle), np.sin(angle)
        return np.matrix([[c, -s], [s, c]])

    def as_float32_tensor(angle):
        return torch.tensor([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]], dtype=torch.float32)

    selfcheck.check_rotation(as_matrix)
    selfcheck.check_rotation(as_float32_tensor)
    with pytest.raises(SelfCheckFailed, match="returned a Foo, expected an array of shape"):
        selfcheck.check_rotation(lambda angle: Foo())
    with pytest.raises(SelfCheckFailed, match="returned a list"):
        selfcheck.check_rotation(lambda angle: [[1.0, 0.0], [0.0, 1.0]])
