r"""What counts as an answer, and when it is right: the one rule of the exercises' self-checks and hidden tests.

Every self-check of the exercises is one call of :func:`check`, in the test cell under its answer (one
that judges a property rather than a value, such as chapter 6's ``design_lookback``, uses the parts of
``check``: :func:`run`, :func:`answer_as`, :func:`fail`, :func:`passed`); the hidden tests that grade the
answers compare with :func:`close`, the same tolerance.

**Kinds.** An answer is a Python number, a numpy scalar, a numpy array (any subclass, ``np.matrix``
included) of a real or complex dtype, or a torch tensor; where the answer is True or False, a bool
(Python's or numpy's). Anything else is refused with a message that names what came back ("rotation(0.3)
returned a list, expected an array of shape (2, 2)") and says what to return.

**Tolerance.** A number ``got`` matches ``want`` when

.. math:: |\mathrm{got} - \mathrm{want}| \le \mathrm{TOL}\,(\mathrm{scale} + |\mathrm{want}|),
   \qquad \mathrm{TOL} = 10^{-4},

relative to the size of ``want``, with ``scale`` (1 unless a question says otherwise: the size of the
terms an answer is a sum of) guarding values near zero; an array matches when it has the shape of
``want`` and every entry matches. That is ``np.allclose(got, want, rtol=TOL, atol=TOL * scale)`` with
equal shapes. ``TOL`` fits float32, whose rounding is :math:`6\cdot 10^{-8}`, with room for the few
hundred operations of an answer computed in float32, and is far below every mistake the exercises look
for. A complex answer matches when its distance to ``want`` does.

**Messages.** A failed self-check raises :class:`SelfCheckFailed`, which Jupyter shows as one line: what
is wrong, then a hint, never the expected numbers. :func:`check` names the first known mistake that an
answer matches ("it turns clockwise"), from the mistakes the question lists.

>>> from posenc.geometry import rotation_2d
>>> def rotation(angle):
...     return np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
>>> check(rotation, [(0.5,), (2.0,)], want=rotation_2d, hint="rotation(0) should be the identity.")
✓ rotation passes its self-check on 2 cases. (Grading runs further, hidden tests.)
>>> check(lambda angle: rotation(-angle), [(0.5,)], want=rotation_2d, hint="rotation(0) should be the identity.",
...       mistakes=[(lambda angle: rotation_2d(-angle), "it turns clockwise.", "check the signs of the sines.")])
Traceback (most recent call last):
...
posenc.book.answers.SelfCheckFailed: <lambda>(0.5): it turns clockwise. Hint: check the signs of the sines.
"""

from __future__ import annotations

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
    ``TOL * (scale + |want|)``. Never true for nan."""
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape or not (_numeric(got) and _numeric(want)):
        return False
    return bool(np.all(np.abs(got - want) <= TOL * (scale + np.abs(want))))


def _numeric(array: np.ndarray) -> bool:
    return array.dtype.kind in "biufc"


def _a(kind: str) -> str:
    return ("an " if kind[:1].lower() in "aeiou" else "a ") + kind


def answer_as(name: str, value, want, args: tuple):
    """The student's ``value`` as the kind of ``want``: a bool, a float, or a float array of ``want``'s shape.

    Fails, naming what came back and what to return, for any other kind, shape, complex values, or nan.
    """
    call = call_text(name, args)
    if isinstance(want, (bool, np.bool_)):
        if not isinstance(value, (bool, np.bool_)) and not (_is_array(value) and np.shape(value) == ()
                                                           and np.asarray(value).dtype == bool):
            fail(f"{call} returned {_a(type(value).__name__)}, expected True or False.", "return True or False.")
        return bool(value)
    shape = np.shape(want)
    wanted = "a number" if shape == () else f"an array of shape {shape}"
    fix = "return a single number (float(...) of a one-element result)." if shape == () else \
        f"return a numpy array (np.array(...)) of shape {shape}."
    if not (isinstance(value, (int, float, complex, np.number)) and not isinstance(value, bool) or _is_array(value)):
        fail(f"{call} returned {_a(type(value).__name__)}, expected {wanted}.", fix)
    array = _as_numpy(value)
    if not _numeric(array) or array.dtype == bool:
        fail(f"{call} returned {array.dtype} values, expected {wanted}.", fix)
    if array.shape != shape:
        fail(f"{call} returned {_a(type(value).__name__)} of shape {array.shape}, expected {wanted}.", fix)
    if np.iscomplexobj(array):
        if not close(array.imag, np.zeros(shape)):
            fail(f"{call} returned complex numbers.", "the answer is real: take the real part.")
        array = array.real
    if not np.all(np.isfinite(array)):
        fail(f"{call} returned nan or inf.", "look for a division by zero or a log of 0.")
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


def run(name: str, function: Callable, args: tuple):
    """``function(*args)`` on copies of the arguments, or a failure that says what went wrong when it raises."""
    if not callable(function):
        fail(f"{name} is {_a(type(function).__name__)}, not a function.", "define it with `def`.")
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return function(*(a.copy() if isinstance(a, np.ndarray) else a for a in args))
    except NotImplementedError:
        fail(f"{name} is not written yet.", "replace the line `raise NotImplementedError()` with your code.")
    except Exception as error:  # the student's code may raise anything
        fail(f"{call_text(name, args)} raised {type(error).__name__}: {error}.",
             "call it on a small example in a scratch cell and read the error.")


def _raises(name: str, function: Callable, args: tuple, expected: Exception, hint: str) -> None:
    """Check that ``function(*args)`` raises the type of ``expected`` with a message holding its text."""
    call = call_text(name, args)
    try:
        run(name, function, args)
    except SelfCheckFailed as failed:
        if f"raised {type(expected).__name__}: " not in str(failed):
            raise
        if str(expected) not in str(failed).split(f"raised {type(expected).__name__}: ", 1)[1]:
            fail(f"{call} raised {type(expected).__name__} without saying {str(expected)!r}.", hint)
        return
    fail(f"{call} returned a result.", hint)


def check(function: Callable, cases: Sequence[tuple] | Callable[[np.random.Generator], Sequence[tuple]],
          want: Callable, *,
          mistakes: Sequence[tuple[Callable, str, str]] = (), hint: str, scale: float = 1.0) -> None:
    """The self-check of one answer: run ``function`` on each case and judge what it returns.

    Parameters
    ----------
    function : the student's answer.
    cases : the argument tuples to call it with, or a function that makes them from a random generator
        (seeded from the answer's name, so that the verdict repeats from one run to the next).
    want : the reference, called with the same arguments: the right answer (a bool, a number or an array,
        which also sets the kind and shape expected; a bool or an integer is matched exactly), or an
        exception that the call must raise, whose message must hold the exception's text.
    mistakes : ``(what the mistake gives, what is wrong, a hint)`` triples; the first is called with the
        same arguments (None where the mistake does not apply). A wrong answer is told the first one it
        matches.
    hint : what a wrong answer that matches no known mistake is told.
    scale : the ``scale`` of :func:`close`.

    Prints a tick when every case passes; raises :class:`SelfCheckFailed` at the first that does not.
    """
    name = getattr(function, "__name__", "your answer")
    if callable(cases):
        cases = cases(np.random.default_rng(zlib.crc32(name.encode())))
    if not callable(want):
        raise TypeError(f"check({name}, ...): want must be a function of the answer's arguments that returns the right "
                        f"answer (a function of posenc, say), got {type(want).__name__}")
    if not cases:
        raise ValueError(f"check({name}, ...): no cases to try; give it tuples of arguments, such as [(8, 10000.0)]")
    for args in cases:
        expected = want(*args)
        if isinstance(expected, Exception):
            _raises(name, function, args, expected, hint)
            continue
        got = answer_as(name, run(name, function, args), expected, args)
        if _matches(got, expected, scale):
            continue
        for mistake, problem, mistake_hint in mistakes:
            given = mistake(*args)
            if given is not None and _matches(got, given, scale):
                fail(f"{call_text(name, args)}: {problem}", mistake_hint)
        fail(f"{call_text(name, args)} does not give the right result.", hint)
    passed(name, len(cases))


def _matches(got, expected, scale: float) -> bool:
    """``got`` against ``expected``: a bool or a count (an integer) exactly, anything else by :func:`close`."""
    if isinstance(expected, (bool, np.bool_, int, np.integer)):
        return got == expected
    return close(got, expected, scale)


def passed(name: str, cases: int) -> None:
    """The tick of a self-check that found nothing wrong."""
    print(f"\N{CHECK MARK} {name} passes its self-check on {cases} cases. (Grading runs further, hidden tests.)")
