"""How a self-check runs a student's answer and judges it, the same way in every chapter.

A self-check calls the answer through :func:`run_answer` (a crash or an unwritten answer becomes a message),
turns what came back into numbers with :func:`as_array` or :func:`as_number` (the kinds and the tolerance of
:mod:`posenc.book.answers`, which the hidden tests apply too), and hands it to :func:`judge`, which names
the first known mistake the answer matches. A failure raises :class:`SelfCheckFailed`: what is wrong,
then a hint, never the expected numbers.
"""

from __future__ import annotations

import warnings
import zlib
from collections.abc import Callable

import numpy as np

from ..answers import TOL, plain


class SelfCheckFailed(AssertionError):
    """A self-check found a mistake. Jupyter shows the message alone, without a traceback."""

    def _render_traceback_(self) -> list[str]:
        return [f"\N{BALLOT X} {self}"]


def fail(problem: str, hint: str):
    """Stop the check: what is wrong, then a hint (never the expected values)."""
    raise SelfCheckFailed(f"{problem} Hint: {hint}")


def seeded_rng(name: str) -> np.random.Generator:
    """The random generator of the check of ``name``: the same cases every run, so the verdict repeats."""
    return np.random.default_rng(zlib.crc32(name.encode()))


def call_text(name: str, args: tuple) -> str:
    """How a call looks in a message: arrays by their shape, numbers short."""
    def one(a):
        if isinstance(a, np.ndarray):
            return f"<array of shape {a.shape}>"
        return f"{a:.4g}" if isinstance(a, float) else repr(a)

    return f"{name}(" + ", ".join(one(a) for a in args) + ")"


def run_answer(name: str, function: Callable, *args):
    """``function(*args)``, or a :class:`SelfCheckFailed` that says what went wrong when it raises."""
    if not callable(function):
        fail(f"{name} is a {type(function).__name__}, not a function.", "define it with `def`.")
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return function(*(a.copy() if isinstance(a, np.ndarray) else a for a in args))
    except NotImplementedError:
        fail(f"{name} is not written yet.", "replace the line `raise NotImplementedError()` with your code.")
    except Exception as error:  # the student's code may raise anything
        fail(f"{call_text(name, args)} raised {type(error).__name__}: {error}.",
              "call it on a small example in a scratch cell and read the error.")


def plain_answer(name: str, value, shape, args: tuple):
    """:func:`posenc.book.answers.plain`, failing as a self-check does: the same kinds pass as in the hidden tests."""
    try:
        return plain(name, value, shape)
    except AssertionError as refused:
        fail(f"{call_text(name, args)}: {str(refused).removeprefix(name + ' ')}.",
              "return True or False." if shape is None else
              "return a single number (float(...) of a one-element result)." if shape == () else
              f"return a numpy array (np.array(...)) of shape {shape}.")


def as_array(name: str, value, shape: tuple, args: tuple) -> np.ndarray:
    """``value`` as a float array of ``shape``, or a failure that names the kind or shape problem."""
    value = np.asarray(plain_answer(name, value, shape, args))
    if np.iscomplexobj(value):
        if not matches(value.imag, np.zeros(shape)):
            fail(f"{call_text(name, args)} returned complex numbers.", "the answer is real: take the real part.")
        value = value.real
    value = value.astype(np.float64)
    if not np.all(np.isfinite(value)):
        fail(f"{call_text(name, args)} returned nan or inf.", "look for a division by zero or a log of 0.")
    return value


def as_number(name: str, value, args: tuple) -> float:
    """``value`` as a float, or a failure: the function should return one number."""
    return float(as_array(name, value, (), args))


def matches(a, b) -> bool:
    """The rule of :mod:`posenc.book.answers`, entry by entry: ``|a - b| <= TOL (1 + |b|)``."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return a.shape == b.shape and bool(np.all(np.abs(a - b) <= TOL * (1 + np.abs(b))))


def judge(name: str, args: tuple, got, expected, mistakes: list[tuple], hint: str) -> None:
    """Pass if ``got`` matches ``expected``; else name the first known mistake it matches, or give ``hint``.

    ``mistakes`` holds ``(what the mistake gives, what is wrong, a hint)`` triples.
    """
    if matches(got, expected):
        return
    for value, problem, mistake_hint in mistakes:
        if matches(got, value):
            fail(f"{call_text(name, args)}: {problem}", mistake_hint)
    fail(f"{call_text(name, args)} does not give the right result.", hint)


def passed(name: str, cases: int) -> None:
    print(f"\N{CHECK MARK} {name} passes its self-check on {cases} random cases. "
          "(Grading runs further, hidden tests.)")
