"""Answers that try to read the expected values instead of computing them: each must score 0.

Every cheat first silences the self-checks (it rebinds ``check``, the one self-check function of
``posenc.book.answers`` that the test cells call), then answers every question with one function that
returns an object, or a value found, by reading what the grading code holds: the caller's frames
(``sys._getframe``), ``inspect``, the garbage collector, the globals of every frame, or an ndarray subclass
whose methods do the same. The hidden tests run outside the kernel, so there is nothing to find.
"""

from __future__ import annotations

from nbformat import NotebookNode

from posenc_grader import hidden, samples

SILENCE = '''
import gc, inspect, sys
import numpy as np
import posenc.book.answers


def check(*args, **kwargs):
    return None


setattr(posenc.book.answers, "check", check)
EXPECTED = ("want", "expected", "mixed", "turned", "share", "verdicts", "c", "s")
'''

#: How each cheat finds a value: a function ``_find()`` returning what it found, or None.
FINDERS = {
    "frames": '''
def _find():
    frame = sys._getframe(1)
    while frame is not None:
        for name in EXPECTED:
            if name in frame.f_locals:
                return frame.f_locals[name]
        frame = frame.f_back
''',
    "inspect": '''
def _find():
    for info in inspect.stack():
        for name in EXPECTED:
            if name in info.frame.f_locals:
                return info.frame.f_locals[name]
''',
    "gc": '''
def _find():
    for thing in reversed(gc.get_objects()):
        if isinstance(thing, dict):
            for name in EXPECTED:
                if name in thing and isinstance(thing[name], (int, float, complex, bool)):
                    return thing[name]
''',
    "globals": '''
def _find():
    frame = sys._getframe(1)
    while frame is not None:
        for space in (frame.f_locals, frame.f_globals):
            for name, value in list(space.items()):
                if name in EXPECTED or callable(value) and name.startswith("_hidden"):
                    return value if name in EXPECTED else None
        frame = frame.f_back
''',
}

#: An object that hands back whatever ``_find`` finds, whenever the grading code touches it.
ANYTHING = '''
class _Same:
    def __eq__(self, other):
        return True

class Anything:
    shape = property(lambda self: _Same())
    def _value(self):
        found = _find()
        return 0.0 if found is None or isinstance(found, Anything) else found
    def __float__(self):
        return float(self._value())
    def __complex__(self):
        return complex(self._value())
    def __eq__(self, other):
        return True
    def __lt__(self, other):  # and no order at all, so that a loop in a cell of the student's ends
        return False
    __gt__ = __le__ = __ge__ = __lt__
    def __sub__(self, other):
        return 0.0
    __rsub__ = __sub__
    def __getitem__(self, key):
        return self
    def __bool__(self):
        return bool(self._value())
    def item(self):
        return self._value()
    def tolist(self):
        return self._value()

class Sneaky(np.ndarray):
    """An ndarray whose Python-level methods all read the expected value."""
    def __getitem__(self, key):
        return Anything()
    def tolist(self):
        return Anything()
    def item(self):
        return Anything()
    def __float__(self):
        return float(Anything())
'''

#: What each answer function returns, by cheat.
RETURNS = {**dict.fromkeys(FINDERS, "Anything()"), "ndarray": "np.zeros(1).view(Sneaky)",
           "found_at_call": "np.asarray(0.0 if _find() is None else _find())"}


def submission(kind: str, source: NotebookNode, release: NotebookNode) -> NotebookNode:
    """The student version ``release`` with every autograded answer of ``source`` written as the cheat ``kind``."""
    code = cheat(kind, hidden.answer_functions(source))
    return samples.filled(release, dict.fromkeys(samples.autograded_answers(source), code))


def cheat(kind: str, function_names: list[str]) -> str:
    """The text of an answer cell that defines ``function_names`` as the cheat ``kind``."""
    finder = FINDERS.get(kind, FINDERS["frames"])
    body = "".join(f"\ndef {name}(*args, **kwargs):\n    return {RETURNS[kind]}\n" for name in function_names)
    return SILENCE + finder + ANYTHING + body
