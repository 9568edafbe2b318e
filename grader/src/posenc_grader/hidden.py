"""Hidden tests in ordinary Python, run beside the student's kernel and never inside it.

:class:`~posenc_grader.execute.GradingExecute` runs a test cell's visible part (the self-check) in the kernel and
its hidden part here, with :func:`run`: in the grading process, where no student code ever runs, in a fresh
namespace that holds numpy as ``np`` and, under the name of each answer function of the notebook, a stand-in
(:class:`Answer`). Calling a stand-in calls the student's function in the kernel and gives back wire data
(:mod:`posenc_grader.wire`), or raises again, by its type name, what the function raised. The expected values
never exist in the kernel, and nothing that comes back from it can run code here, so a student's code can
neither read them nor change how they are compared, whatever it does to numpy, to builtins or to the kernel.

A failure goes back into the test cell as one error output, type and message without a traceback (which would
show the test's code); nbgrader scores the cell as any other. A failed assertion shows only the message its
author wrote (:func:`failure`), never the library's text, which prints both values compared; :func:`unsaid`
finds every assertion without one.
"""

from __future__ import annotations

import ast
import builtins
import json
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import numpy as np
from nbformat import NotebookNode

from . import wire
from .course import HIDDEN_TESTS, nbgrader_meta

#: The file name the hidden tests are compiled under: the frames of their code, helper functions included.
FILENAME = "<hidden tests>"
#: The parameters by which an assertion function takes its author's message (numpy; torch and unittest).
MESSAGE_ARGUMENTS = ("err_msg", "msg")
#: The media type of a call's answer, as the kernel displays it.
MIME = "application/vnd.posenc-grader.answer+json"
WIRE_SOURCE = Path(wire.__file__).read_text(encoding="utf-8")
#: What a probe cell runs in the kernel: the source of :mod:`posenc_grader.wire`, then one call, displayed.
CALL = """def _posenc_grader_call(scope={{}}):
    exec({source}, scope)
    import IPython.display, json
    IPython.display.display({{{mime}: scope["answer"](globals(), {name}, json.loads({request}))}}, raw=True)
_posenc_grader_call()
del _posenc_grader_call
"""


class Failure(NamedTuple):
    """Why the hidden tests of a cell failed: an exception's type name and its message."""

    ename: str
    message: str


class Stop(BaseException):  # noqa: N818 -- not an error of the test: the grading of this cell stops here
    """Raised by a call that cannot go on (the kernel timed out or died), with the :class:`Failure` to show as its
    arguments (type name, message): ends the hidden tests at once, whatever ``try``/``except Exception`` they hold."""


def split(source: str) -> tuple[str, str]:
    """``(visible part, hidden part)`` of a test cell's source; the hidden part is '' when it has none."""
    before, marker, rest = source.partition(HIDDEN_TESTS[0])
    if not marker:
        return source, ""
    hidden, _, after = rest.partition(HIDDEN_TESTS[1])
    return before + after.lstrip("\n"), hidden


def is_test_cell(cell: NotebookNode) -> bool:
    """Whether ``cell`` is an autograder test cell: code, graded, no answer."""
    meta = nbgrader_meta(cell)
    return cell.cell_type == "code" and bool(meta.get("grade")) and not meta.get("solution")


def tests_of(nb: NotebookNode) -> dict[str, str]:
    """``{grade id: hidden part}`` of every test cell of the source notebook ``nb`` that has one: the only hidden
    tests that ever run (a submission's own text between the markers is the student's code, run in the kernel)."""
    return {nbgrader_meta(cell).get("grade_id", ""): split(cell.source)[1] for cell in nb.cells
            if is_test_cell(cell) and split(cell.source)[1]}


def answer_functions(nb: NotebookNode) -> list[str]:
    """The names of the functions that the answer cells of ``nb`` define at their top level, in order."""
    names = []
    for cell in nb.cells:
        if cell.cell_type == "code" and nbgrader_meta(cell).get("solution"):
            try:
                tree = ast.parse(cell.source)
            except SyntaxError:
                continue
            names += [node.name for node in tree.body if isinstance(node, ast.FunctionDef) and node.name not in names]
    return names


def call_code(name: str, request: dict) -> str:
    """The code that calls the kernel's ``name`` on ``request`` and displays the answer under :data:`MIME`."""
    return CALL.format(source=repr(WIRE_SOURCE), mime=repr(MIME), name=repr(name), request=repr(json.dumps(request)))


def answer_in(outputs: list) -> dict | None:
    """The answer a probe cell displayed (the last one, if the student displayed more), or None."""
    found = [o.data[MIME] for o in outputs if o.get("output_type") == "display_data" and MIME in o.get("data", {})]
    return json.loads(json.dumps(found[-1])) if found and isinstance(found[-1], dict) else None  # plain dicts


def _a(kind: str) -> str:
    """``kind`` after its article, as the self-checks say it (posenc.book.answers, a layer the grader never imports)."""
    return ("an " if kind[:1].lower() in "aeiou" or kind.startswith("nd") else "a ") + kind


def _exception(ename: str, message: str, base: str = "Exception") -> Exception:
    """An exception of this process named ``ename`` (a builtin one where it exists, else a subclass of the builtin
    ``base``, so that hidden tests catch a student's subclass of ValueError as a ValueError) carrying ``message``."""
    builtin = getattr(builtins, ename, None)
    if isinstance(builtin, type) and issubclass(builtin, Exception):
        try:
            return builtin(message)
        except TypeError:  # UnicodeDecodeError and the like want more arguments
            pass
    parent = getattr(builtins, base, None)
    parent = parent if isinstance(parent, type) and issubclass(parent, Exception) else Exception
    return type(ename if ename.isidentifier() else "Error", (parent,), {})(message)


class Answer:
    """The student's function ``name``: calling it calls the kernel's, on wire data, through ``call``.

    ``call(name, request)`` returns the answer dict of :func:`posenc_grader.wire.answer`, or None when
    the kernel displayed none; it raises :class:`Stop` when the kernel timed out or died.
    """

    def __init__(self, name: str, call: Callable[[str, dict], dict | None]):
        self.name, self._call = name, call

    def __repr__(self) -> str:
        return f"<the student's {self.name}>"

    def __call__(self, *args, **kwargs):
        try:
            request = {"args": wire.pack(list(args)), "kwargs": wire.pack([[k, v] for k, v in kwargs.items()])}
        except wire.NotWireData as refused:
            raise TypeError(f"the hidden tests passed {_a(str(refused))} to {self.name}: only numbers, text, "
                            "arrays (numpy or torch) and tuples or lists of them reach the student's kernel") from None
        answer = self._call(self.name, request)
        if answer and "value" in answer:
            try:
                return wire.unpack(answer["value"])
            except (ValueError, TypeError, KeyError):
                raise AssertionError(f"{self.name} returned something the grader cannot read back: return numbers, "
                                     "arrays (numpy or torch) or a tuple of them") from None
        if answer and "returned" in answer:
            raise AssertionError(f"{self.name} returned {_a(str(answer['returned']))}, expected numbers, "
                                 "arrays (numpy or torch) or a tuple of them")
        if answer and "raised" in answer:
            error = _exception(str(answer["raised"]), str(answer.get("message", "")), str(answer.get("builtin", "")))
            error.raised_by = self.name
            raise error
        raise AssertionError(f"calling {self.name} gave no answer: the kernel ran no code, or its output was removed")


def _said(error: AssertionError) -> str:
    """The message the author of the hidden tests gave the assertion that failed: the error's own when the tests'
    code (or this module, for an answer that is not wire data) raised it, else the ``err_msg`` or ``msg`` of the
    function the tests called, which raised it with the values it compared."""
    frames = [frame for frame, _ in traceback.walk_tb(error.__traceback__)]
    ours = [i for i, frame in enumerate(frames) if frame.f_code.co_filename == FILENAME]
    if not ours or frames[-1].f_code.co_filename in (FILENAME, __file__):
        return str(error)
    called = frames[ours[-1] + 1].f_locals
    said = next((called[name] for name in MESSAGE_ARGUMENTS if called.get(name)), "")
    return said if isinstance(said, str) else ""


def failure(error: BaseException) -> Failure:
    """What a student is shown of an exception that ended the hidden tests: its type and message only, and of a
    failed assertion only the message its author wrote (:func:`_said`)."""
    ename, message = type(error).__name__, str(error)
    if getattr(error, "raised_by", None):
        message = f"{error.raised_by} raised {ename}" + (f": {message}" if message else "")
    elif isinstance(error, AssertionError):
        message = _said(error) or "a hidden test failed"
    elif not message:
        message = ename
    return Failure(ename, message[:2000])


def unsaid(source: str) -> list[int]:
    """The lines of hidden tests ``source`` that assert without a message for the student: an ``assert`` with
    none, or a call of an ``assert...`` function not defined in them (``np.testing.assert_allclose``) without
    ``err_msg=`` or ``msg=``."""
    tree, lines = ast.parse(source), []
    helpers = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}  # their asserts are seen
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert) and node.msg is None:
            lines.append(node.lineno)
        elif isinstance(node, ast.Call):
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            if name.startswith("assert") and name not in helpers and not {k.arg for k in node.keywords} & set(
                    MESSAGE_ARGUMENTS):
                lines.append(node.lineno)
    return sorted(lines)


def run(source: str, names: list[str], call: Callable[[str, dict], dict | None]) -> Failure | None:
    """Run the hidden tests ``source`` with numpy as ``np`` and a stand-in for each answer function in
    ``names``; None when they pass, else the :class:`Failure` to show."""
    namespace = {"__name__": "__hidden_tests__", "np": np, **{name: Answer(name, call) for name in names}}
    try:
        exec(compile(source, FILENAME, "exec"), namespace)
    except Stop as stop:
        return Failure(*stop.args)
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # noqa: B036 -- a failed test may raise anything, SystemExit included
        return failure(error)
    return None
