r"""What counts as an answer, and when it is right: the one rule of the exercises' self-checks and hidden tests
(stated for authors in the instructor guide, *How an answer is judged*).

A self-check is the cell under its answer, one call ``check(function, stored, hint=...)``. ``stored`` holds,
compressed (:func:`store`), a few inputs, what the model answer gives on them, and what each listed mistake gives
with what is wrong and a hint, computed when the question is published (``tools/self_checks.py``), so a student's
notebook holds no solution. The self-check never grades: the hidden tests, in the test cell, decide the points;
they compare with :func:`close`. Its tolerance ``TOL`` fits float32, whose rounding is :math:`6\cdot 10^{-8}`, with
room for the few hundred operations of an answer computed in float32, and is far below every mistake the exercises
look for. The kinds of answer accepted: :func:`answer_as`; where the answer is an error, any exception of that type
or of a subclass. A failed self-check raises :class:`SelfCheckFailed`, shown as one line: what is wrong, then a
hint, never the expected numbers. A wrong answer that gives what a listed mistake gives on every input is told that
mistake ("it turns clockwise"); any other, the question's hint.

>>> def rotation(angle):
...     return np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
>>> stored = store([(0.5,), (2.0,)], rotation, [(lambda angle: rotation(-angle), "it turns clockwise.",
...                                                "check the signs of the sines.")])
>>> check(rotation, stored, hint="rotation(0) should be the identity.")
✓ rotation passes its self-check on 2 cases. (Grading runs further, hidden tests.)
>>> check(lambda angle: rotation(-angle), stored, hint="rotation(0) should be the identity.")
Traceback (most recent call last):
...
posenc.book.answers.SelfCheckFailed: <lambda>(0.5): it turns clockwise. Hint: check the signs of the sines.
"""

from __future__ import annotations

import base64
import builtins
import json
import warnings
import zlib
from collections.abc import Callable, Sequence
from typing import NoReturn

import numpy as np

TOL = 1e-4  # the one tolerance of the course: relative, fit for float32


class SelfCheckFailed(AssertionError):
    """A self-check found a mistake. Jupyter shows the message alone, without a traceback."""

    def _render_traceback_(self) -> list[str]:
        return [f"\N{BALLOT X} {self}"]


def fail(problem: str, hint: str) -> NoReturn:
    """Stop the check: what is wrong, then a hint (never the expected values)."""
    raise SelfCheckFailed(f"{problem} Hint: {hint}")


def call_text(name: str, args: tuple) -> str:
    """How a call looks in a message: arrays by their shape, numbers short."""
    def one(a):
        if isinstance(a, np.ndarray):
            return f"<array of shape {a.shape}>"
        return f"{a:.3g}" if isinstance(a, float) else repr(a)

    return f"{name}(" + ", ".join(one(a) for a in args) + ")"


def close(got, want, scale: float = 1.0) -> bool:
    """Whether ``got`` matches ``want`` by the course's rule: the same shape, and every entry within
    ``TOL * (scale + |want|)`` (``scale``, 1 unless a question says otherwise, is the size of the terms an answer is a
    sum of: it guards values near zero). That is ``np.allclose(got, want, rtol=TOL, atol=TOL * scale)`` with equal
    shapes; a complex answer matches when its distance to ``want`` does. Never true for nan."""
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape or not (_numeric(got) and _numeric(want)):
        return False
    return bool(np.all(np.abs(got - want) <= TOL * (scale + np.abs(want))))


def _numeric(array: np.ndarray) -> bool:
    return array.dtype.kind in "biufc"


def a_or_an(kind: str) -> str:
    """``kind`` after its article: "an int", "a list", "an ndarray"."""
    return ("an " if kind[:1].lower() in "aeiou" or kind.startswith("nd") else "a ") + kind


def answer_as(name: str, value, want, args: tuple):
    """The student's ``value`` as the kind of ``want``: a bool, a float, or a float array of ``want``'s shape.

    An answer is a Python number, a numpy scalar, a numpy array (any subclass, ``np.matrix`` included) of a real or
    complex dtype (booleans read as 0 and 1), a torch tensor, or a list or tuple of numbers (nested as the array's
    rows): what the hidden tests' :func:`close` reads as that array; where ``want`` is True or False, a bool
    (Python's or numpy's). Fails, naming what came back and what to return, for any other kind, shape, complex
    values, or nan.
    """
    call = call_text(name, args)
    if isinstance(want, (bool, np.bool_)):
        if not isinstance(value, (bool, np.bool_)) and not (_is_array(value) and np.shape(value) == ()
                                                           and np.asarray(value).dtype == bool):
            fail(f"{call} returned {a_or_an(type(value).__name__)}, expected True or False.", "return True or False.")
        return bool(value)
    shape = np.shape(want)
    wanted = "a number" if shape == () else f"an array of shape {shape}"
    fix = "return a single number (float(...) of a one-element result)." if shape == () else \
        f"return a numpy array (np.array(...)) of shape {shape}."
    if not (isinstance(value, (int, float, complex, np.number, list, tuple)) and not isinstance(value, bool)
            or _is_array(value)):
        fail(f"{call} returned {a_or_an(type(value).__name__)}, expected {wanted}.", fix)
    try:
        array = _as_numpy(value)
    except (ValueError, TypeError, RuntimeError):  # a ragged list, a list of tensors that numpy cannot join
        fail(f"{call} returned {a_or_an(type(value).__name__)} that is no array of numbers, expected {wanted}.", fix)
    if not _numeric(array):
        fail(f"{call} returned {array.dtype} values, expected {wanted}.", fix)
    if array.shape != shape:
        fail(f"{call} returned {a_or_an(type(value).__name__)} of shape {array.shape}, expected {wanted}.",
             fix if shape == () else f"count the entries along each axis of your result: {shape} is wanted.")
    if np.iscomplexobj(array):
        if not close(array.imag, np.zeros(shape)):
            fail(f"{call} returned complex numbers.", "the answer is real: take the real part.")
        array = array.real
    if not np.all(np.isfinite(array)):
        fail(f"{call} returned nan or inf.", "look for a division by zero, a log of 0, or exp of a large number.")
    return float(array) if shape == () else array.astype(np.float64)


def _is_array(value) -> bool:
    """A numpy array (any subclass) or a torch tensor."""
    kind = type(value)
    return isinstance(value, np.ndarray) or kind.__module__.startswith("torch") and hasattr(value, "detach")


def _as_numpy(value) -> np.ndarray:
    """A numpy array of ``value`` (a torch tensor's values on the CPU; bfloat16, which numpy lacks, as float32)."""
    if isinstance(value, np.ndarray) or not _is_array(value):
        return np.asarray(value)
    tensor = value.detach().cpu().resolve_conj()
    return (tensor.float() if str(tensor.dtype) == "torch.bfloat16" else tensor).numpy()


def outcome(name: str, function: Callable, args: tuple):
    """What ``function(*args)`` gives, on copies of the arguments: its value, or the exception it raised."""
    if not callable(function):
        fail(f"{name} is {a_or_an(type(function).__name__)}, not a function.", "define it with `def`.")
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return function(*(a.copy() if isinstance(a, np.ndarray) else a for a in args))
    except NotImplementedError:
        fail(f"{name} is not written yet.", "replace the line `raise NotImplementedError()` with your code.")
    except Exception as error:  # the student's code may raise anything
        return error


def run(name: str, function: Callable, args: tuple):
    """``function(*args)``, or a failure that says what went wrong when it raises."""
    value = outcome(name, function, args)
    if isinstance(value, Exception):
        fail(f"{call_text(name, args)} raised {type(value).__name__}: {value}.",
             "call it on a small example in a scratch cell and read the error.")
    return value


# ---------------------------------------------------------------- stored values: what a self-check compares with


def _pack(value):
    """``value`` as JSON: arrays, tuples and exceptions tagged, floats of results cut to 6 digits by the caller."""
    if isinstance(value, BaseException):
        return {"raises": next(c.__name__ for c in type(value).__mro__ if getattr(builtins, c.__name__, None) is c)}
    if isinstance(value, np.ndarray):
        return {"array": value.ravel().tolist(), "shape": value.shape, "dtype": value.dtype.str}
    if isinstance(value, tuple):
        return {"tuple": [_pack(v) for v in value]}
    if isinstance(value, list):
        return [_pack(v) for v in value]
    return value.item() if isinstance(value, np.generic) else value


def _unpack(data):
    """What :func:`_pack` made ``data`` from; an exception as its type (any subclass of it will do)."""
    if isinstance(data, list):
        return [_unpack(v) for v in data]
    if not isinstance(data, dict):
        return data
    if "array" in data:
        return np.array(data["array"], dtype=data["dtype"]).reshape(data["shape"])
    return tuple(_unpack(v) for v in data["tuple"]) if "tuple" in data else getattr(builtins, data["raises"])


def _result(value):
    """A result to store: numbers to 6 significant digits (the tolerance needs 4), arrays of numbers as floats."""
    value = _as_numpy(value) if _is_array(value) else value
    if isinstance(value, np.ndarray) and value.dtype.kind in "fc":
        return np.array([float(f"{x:.6g}") for x in value.real.ravel()]).reshape(value.shape)
    return float(f"{value:.6g}") if isinstance(value, (float, np.floating)) else value


def store(cases: Sequence[tuple], model: Callable, mistakes: Sequence[tuple[Callable, str, str]] = ()) -> str:
    """The ``stored`` argument of :func:`check`: ``cases``, what ``model`` gives on them, and for each mistake
    ``(function, what is wrong, hint)`` what it gives, compressed into text. For the authoring tools."""
    def results(function):
        return [_pack(_result(outcome("model", function, args))) for args in cases]

    data = {"cases": [_pack(tuple(args)) for args in cases], "want": results(model),
            "mistakes": [[problem, hint, results(function)] for function, problem, hint in mistakes]}
    return base64.b85encode(zlib.compress(json.dumps(data, separators=(",", ":")).encode(), 9)).decode()


def stored_values(stored: str) -> dict:
    """What :func:`store` wrote: ``cases``, ``want`` and ``mistakes``, with arrays and exceptions as Python values."""
    return {key: _unpack(value) for key, value in json.loads(zlib.decompress(base64.b85decode(stored))).items()}


def _same(name: str, got, want, args: tuple) -> bool:
    """Whether what the student's function gave (a value or an exception) is ``want`` (a value or an exception
    type, of which any subclass will do)."""
    if isinstance(want, type):
        return isinstance(got, want)
    if isinstance(got, Exception):
        return False
    try:
        got = answer_as(name, got, want, args)
    except SelfCheckFailed:
        return False
    if isinstance(want, (bool, int)):
        return got == want
    return close(got, want)


def check(function: Callable, stored: str, *, hint: str, says: str = "") -> None:
    """The self-check of one answer: call ``function`` on the stored inputs and compare with the stored results
    (by :func:`close`; a count or True/False exactly).

    Parameters
    ----------
    function : the student's answer.
    stored : the inputs and results, written by :func:`store` when the question was published.
    hint : what a wrong answer that matches no listed mistake is told.
    says : where the answer must raise, what the exception's message must hold, whatever the case: a format
        string over the arguments (``"{1.shape[0]}"``: the length of the second).

    Prints a tick when every case passes; raises :class:`SelfCheckFailed` when one does not, naming the listed
    mistake that gives what the answer gives on every input, or else what went wrong at the first wrong case.
    """
    name = getattr(function, "__name__", "your answer")
    data = stored_values(stored)
    cases = data["cases"]
    got = [outcome(name, function, args) for args in cases]
    wrong = [i for i, args in enumerate(cases) if not _same(name, got[i], data["want"][i], args)]
    if not wrong:
        for args, value, want in zip(cases, got, data["want"], strict=True):
            if says and isinstance(want, type) and says.format(*args).lower() not in str(value).lower():
                fail(f"{call_text(name, args)} raised {type(value).__name__}, but its message does not say "
                     f"{says.format(*args)!r}.", hint)
        passed(name, len(cases))
        return
    for problem, mistake_hint, results in data["mistakes"]:
        if all(_same(name, g, r, args) for g, r, args in zip(got, results, cases, strict=True)):
            fail(f"{call_text(name, cases[wrong[0]])}: {problem}", mistake_hint)
    args, value, want = cases[wrong[0]], got[wrong[0]], data["want"][wrong[0]]
    call = call_text(name, args)
    if isinstance(want, type) and isinstance(value, Exception):
        fail(f"{call} raised {type(value).__name__}, not {want.__name__}.", hint)
    if isinstance(want, type):
        fail(f"{call} returned a result, expected {a_or_an(want.__name__)}.", hint)
    if isinstance(value, Exception):
        fail(f"{call} raised {type(value).__name__}: {value}.",
             "call it on a small example in a scratch cell and read the error.")
    answer_as(name, value, want, args)  # names a wrong kind or shape
    fail(f"{call} does not give the right result.", hint)


def passed(name: str, cases: int) -> None:
    """The tick of a self-check that found nothing wrong."""
    print(f"\N{CHECK MARK} {name} passes its self-check on {cases} cases. (Grading runs further, hidden tests.)")
