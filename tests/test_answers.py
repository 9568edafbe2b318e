"""The one rule for answers (posenc.book.answers): the kinds accepted, how close is right, what a check says."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from posenc.book.answers import TOL, SelfCheckFailed, answer_as, check, close, store, stored_values


class Foo:
    """Not an answer, however number-like it pretends to be."""

    def __float__(self):
        return 1.0


@pytest.mark.parametrize("value,want,expected", [
    (2, 0.0, 2.0), (2.5, 0.0, 2.5), (np.float64(2.5), 0.0, 2.5), (np.float32(0.5), 0.0, 0.5), (np.int64(3), 0.0, 3.0),
    (np.array(1.5), 0.0, 1.5), (torch.tensor(0.25), 0.0, 0.25), (1 + 0j, 0.0, 1.0),
    (np.array([[1.0, 2.0], [3.0, 4.0]]), np.zeros((2, 2)), [[1.0, 2.0], [3.0, 4.0]]),
    (np.array([1, 2], dtype=np.int32), np.zeros(2), [1.0, 2.0]),
    (torch.ones(2, 3, requires_grad=True), np.zeros((2, 3)), [[1.0] * 3] * 2),
    (torch.ones(2, dtype=torch.bfloat16), np.zeros(2), [1.0, 1.0]),
    (True, True, True), (np.bool_(False), True, False), (np.array(True), False, True),
    ([1.0, 2.0], np.zeros(2), [1.0, 2.0]), ([[1, 0], (0, 1)], np.zeros((2, 2)), np.eye(2)),
    ((0.5,), np.zeros(1), [0.5]), (np.array([True, False]), np.zeros(2), [1.0, 0.0]),
])
def test_every_kind_of_answer_is_read_as_the_kind_of_the_reference(value, want, expected):
    got = answer_as("f", value, want, ())
    assert type(got) is (bool if isinstance(want, bool) else float if np.shape(want) == () else np.ndarray)
    assert np.array_equal(got, expected)


@pytest.mark.parametrize("value,want,words", [
    (Foo(), 0.0, "f() returned a Foo, expected a number. Hint: return a single number"),
    ([[1.0], [1.0, 2.0]], np.zeros(2), "returned a list that is no array of numbers, expected an array of shape (2,). "
                                      "Hint: return a numpy array"),
    (["1.0", "2.0"], np.zeros(2), "returned <U3 values"),
    ([1.0, 2.0, 3.0], np.zeros((2, 2)), "returned a list of shape (3,), expected an array of shape (2, 2)"),
    ("1.0", 0.0, "returned a str"),
    (None, np.zeros((2, 2)), "returned a NoneType, expected an array of shape (2, 2)"),
    (np.array([Foo(), Foo()], dtype=object), np.zeros(2), "returned object values"),
    (np.ones(3), np.zeros(2), "ndarray of shape (3,), expected an array of shape (2,)"),
    (np.array([1 + 1j]), np.zeros(1), "returned complex numbers. Hint: the answer is real"),
    (np.array([np.nan]), np.zeros(1), "returned nan or inf"),
    (1.0, True, "returned a float, expected True or False. Hint: return True or False."),
])
def test_anything_else_is_refused_with_a_message_that_names_it_and_a_hint(value, want, words):
    with pytest.raises(SelfCheckFailed) as refused:
        answer_as("f", value, want, ())
    assert words in str(refused.value)


def test_the_tolerance_is_relative_and_fit_for_float32():
    x = np.linspace(-50, 50, 1001)
    assert close(np.sin(x.astype(np.float32)), np.sin(x))
    assert close(10000.0 * (1 + 0.5 * TOL), 10000.0) and not close(10000.0 * (1 + 2 * TOL), 10000.0)
    assert close(0.5 * TOL, 0.0) and not close(2 * TOL, 0.0)
    assert not close(float("nan"), 1.0) and not close(float("inf"), 1.0)
    assert close(1.0 + 1e-9j, 1.0) and not close(1.0 + 0.1j, 1.0)
    assert close(3.0 * TOL, 0.0, scale=4.0) and not close(5.0 * TOL, 0.0, scale=4.0)
    assert not close(np.ones(3), np.ones((1, 3))), "shapes must agree: no broadcasting"


def rotation(angle):
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s], [s, c]])


def positive(x):
    if x <= 0:
        raise ValueError(f"{x} is not positive")
    return np.log(x)


STORED = store([(0.5,), (2.0,)], rotation, [(lambda angle: rotation(-angle), "it turns clockwise.",
                                             "check the signs of the sines.")])
LOG = store([(2.0,), (0.0,)], positive, [(np.log1p, "it adds 1 before the log.", "log(x), not log(1 + x).")])


def test_the_stored_values_hold_inputs_and_results_never_a_function():
    values = stored_values(STORED)
    assert [len(args) for args in values["cases"]] == [1, 1] and close(values["want"][1], rotation(2.0))
    assert values["mistakes"][0][:2] == ["it turns clockwise.", "check the signs of the sines."]
    assert stored_values(LOG)["want"][1] is ValueError


@pytest.mark.parametrize("answer,stored,words", [
    (lambda angle: rotation(-angle) if angle < 1 else 2 * rotation(angle), STORED,
     "<lambda>(0.5) does not give the right result. Hint: the hint"),
    (lambda angle: [[1.0, 0.0], [0.0]], STORED, "returned a list that is no array of numbers"),
    (lambda angle: 1 / 0, STORED, "raised ZeroDivisionError: division by zero"),
    (np.eye(2), STORED, "your answer is an ndarray, not a function. Hint: define it with `def`."),
    (np.log1p, LOG, "log1p(2): it adds 1 before the log. Hint: log(x), not log(1 + x)."),
    (lambda x: 2 * np.log(x) if x else int("x"), LOG, "<lambda>(2) does not give the right result. Hint: the hint"),
    (lambda x: np.log(x) if x else 1 / x, LOG, "<lambda>(0) raised ZeroDivisionError, not ValueError. Hint: the"),
])
def test_a_check_names_a_listed_mistake_only_when_it_gives_all_its_results(answer, stored, words):
    with pytest.raises(SelfCheckFailed) as failed:
        check(answer, stored, hint="the hint")
    assert words in str(failed.value)


def test_a_check_reads_what_an_exception_says_where_the_question_asks(capsys):
    check(positive, LOG, hint="", says="{0}")
    assert capsys.readouterr().out.startswith("\N{CHECK MARK} positive passes")
    with pytest.raises(SelfCheckFailed, match=r"<lambda>\(0\) raised ValueError, but its message does not say '0.0'"):
        check(lambda x: positive(x) if x else int("x"), LOG, hint="", says="{0}")


def test_a_check_takes_the_matrix_as_nested_lists_as_the_hidden_tests_do(capsys):
    check(lambda angle: rotation(angle).tolist(), STORED, hint="")
    assert capsys.readouterr().out.startswith("\N{CHECK MARK} <lambda> passes")
    assert close(rotation(0.5).tolist(), rotation(0.5))  # what the hidden tests compare with


def test_a_check_matches_counts_exactly():
    counts = store([(3,)], lambda n: 62833)
    check(lambda n: 62833.0, counts, hint="")
    with pytest.raises(SelfCheckFailed, match="does not give the right result"):
        check(lambda n: 62832, counts, hint="count position 0")
