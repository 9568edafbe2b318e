#!/usr/bin/env python3
"""Store the self-checks' values and check each question: ``python tools/self_checks.py [ASSIGNMENT ...]``.

A self-check, ``<answer>_check``, is one call ``check(NAME, stored, hint=...)`` of :mod:`posenc.book.answers`. This
tool writes ``stored`` from the model answer and the listed mistakes (``tests/chNN/wrong_solutions/<answer>.py``, each
the model answer with a change, and ``what is wrong. Hint: a hint``), on the inputs stored already or, for a new
question, those the author wrote in their place. Then it checks every question with each of its answers
(:func:`problems`) and names every rule of the instructor guide (*Adding a question*) that one breaks. ``make
exercises`` and ``make new-question`` run it; ``tests/test_exercises.py`` calls :func:`problems`. While a TODO of
``make new-question``'s templates is left anywhere in the course, it refuses to run and names each one.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import json
import re
import sys
import textwrap
import warnings
import zlib
from pathlib import Path

import nbformat
import numpy as np

from posenc.book import answers
from posenc_grader import hidden, samples, wire
from posenc_grader.course import HIDDEN_TESTS, Course, answer_files, answer_source, nbgrader_meta

ROOT = Path(__file__).resolve().parent.parent


def check_cells(nb) -> dict[str, nbformat.NotebookNode]:
    """``{answer id: its self-check cell}``."""
    return {nbgrader_meta(c)["grade_id"][: -len("_check")]: c for c in nb.cells
            if nbgrader_meta(c).get("grade_id", "").endswith("_check")}


def setup_cells(nb) -> list[str]:
    """The locked code cells that every answer runs after: imports and given functions (not the self-checks)."""
    return [c.source for c in nb.cells if c.cell_type == "code" and nbgrader_meta(c).get("locked")
            and not nbgrader_meta(c).get("grade") and not nbgrader_meta(c)["grade_id"].endswith("_check")]


def cells_run(setup: list[str], source: str) -> dict:
    """The namespace in which the set-up cells, then ``source``, ran as cells of a kernel (what they print dropped)."""
    namespace = {"__name__": "__main__"}
    with contextlib.redirect_stdout(io.StringIO()):
        for cell in [*setup, source]:
            exec(cell, namespace)
    return namespace


def mistakes_file(answer: str) -> str:
    """Where the listed mistakes of ``answer`` (``ch03_wavelengths``) are, as messages name it."""
    return f"tests/{answer[:4]}/wrong_solutions/{answer}.py"


def mistakes(root: Path, nb, answer: str, name: str) -> list[tuple]:
    """``(function, what is wrong, hint)`` for each listed mistake (:func:`posenc_grader.samples.mistakes`)."""
    setup, listed = setup_cells(nb), []
    for mistake, (said, source) in samples.mistakes(root / "tests", nb, answer).items():
        problem, _, hint = said.partition("Hint:")
        if not hint.strip():  # the self-check names it by these two (a check of a property says its own)
            raise ValueError(f"{mistakes_file(answer)}, mistake {mistake}: say what is wrong, then 'Hint: ...'")
        listed.append((cells_run(setup, source)[name], " ".join(problem.split()), " ".join(hint.split())))
    return listed


def parse(cell) -> tuple[str, ast.expr, dict[str, object]] | None:
    """The function name, the second argument and the keywords (literals) of a self-check ``check(NAME, ...)``."""
    call = getattr(ast.parse(cell.source).body[-1], "value", None)
    if not (isinstance(call, ast.Call) and getattr(call.func, "id", None) == "check"):
        return None
    return call.args[0].id, call.args[1], {k.arg: ast.literal_eval(k.value) for k in call.keywords}


def render(name: str, stored: str, keywords: dict) -> str:
    """The self-check cell: a comment, then ``check(name, stored, hint=...)``, lines under 120 characters."""
    def text(value: str, indent: str) -> str:
        pieces = textwrap.wrap(value, 100, drop_whitespace=False, break_on_hyphens=False) or [""]
        return f"\n{indent}".join(repr(piece) for piece in pieces)

    blob = "\n      ".join(repr(stored[i:i + 108]) for i in range(0, len(stored), 108))
    rest = "".join(f",\n      {key}=" + (text(value, " " * (len(key) + 7)) if isinstance(value, str) else repr(value))
                   for key, value in keywords.items())
    return (f"# Self-check (not graded): {name} on a few stored inputs; a cross names the mistake it sees.\n"
            f"check({name},\n      {blob}{rest})")


def refresh(root: Path, path: Path) -> tuple[nbformat.NotebookNode, list[str]]:
    """Write the stored values of every self-check of the source notebook ``path``; it and the answers changed."""
    nb = nbformat.read(str(path), as_version=4)
    setup, model_answers, changed = setup_cells(nb), samples.solutions(nb), []
    for answer, cell in check_cells(nb).items():
        if parse(cell) is None:
            continue  # a self-check that judges a property, written out in its cell (chapter 6's design_lookback)
        name, given, keywords = parse(cell)
        if isinstance(given, ast.Constant) and isinstance(given.value, str):
            cases = answers.stored_values(given.value)["cases"]
        else:
            cases = eval(compile(ast.Expression(given), "<cases>", "eval"), {"np": np})  # the author's own cell
            cases = cases(np.random.default_rng(zlib.crc32(name.encode()))) if callable(cases) else cases
        if not cases:
            raise ValueError(f"{answer}_check: no inputs; write the argument tuples to try, such as [(8, 10000.0)]")
        model, listed = cells_run(setup, model_answers[answer])[name], mistakes(root, nb, answer, name)
        source = render(name, answers.store(cases, model, listed), keywords)
        if source != cell.source:
            cell.source, changed = source, [*changed, answer]
    if changed:
        nbformat.write(nb, str(path))
    return nb, changed


HIDDEN_RULE = ("The hidden tests run in the grader's own Python, beside the student's kernel: they see numpy as `np` "
               "and the notebook's answer functions; import anything else they use inside the hidden block.")


def grade(nb, answer: str, source: str) -> tuple[tuple[str, str], hidden.Failure | None]:
    """Grade ``source`` as the answer ``answer`` of the source notebook ``nb``, as the grader does but in this process
    (for the course's own answers, never a student's): the set-up cells, the answer and its self-check run as cells
    in a namespace of their own; the hidden tests run with the grader's :func:`posenc_grader.hidden.run`, which
    reaches the answer through wire data (JSON), as across the kernel's wall.

    Returns what the self-check gave (``"pass"`` or the exception's name, and what it printed or said) and the failure
    of the hidden tests (None when they pass).
    """
    cells = {nbgrader_meta(c).get("grade_id"): c.source for c in nb.cells}

    def call(name: str, request: dict) -> dict:
        return json.loads(json.dumps(wire.answer(namespace, name, request)))

    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()) as printed:
        warnings.simplefilter("ignore")  # np.matrix's, say: a student's kernel shows them, a grade ignores them
        namespace = cells_run(setup_cells(nb), source)
        try:
            exec(cells[f"{answer}_check"], namespace)
            checked = ("pass", printed.getvalue())
        except Exception as error:  # what the answer makes the self-check raise
            checked = (type(error).__name__, str(error))
        return checked, hidden.run(hidden.split(cells[f"{answer}_tests"])[1], hidden.answer_functions(nb), call)


def problems(root: Path, nb, answer: str) -> list[str]:
    """Every rule of the instructor guide (*Adding a question*) that the question ``answer`` of the source notebook
    ``nb`` breaks, one line each, found by grading each of its answers (:func:`grade`). First, the cells' order and
    metadata: only the hidden tests decide the points, so a self-check that fails never costs one."""
    ids = [nbgrader_meta(c).get("grade_id") for c in nb.cells]
    if ids[ids.index(answer) + 1: ids.index(answer) + 3] != [f"{answer}_check", f"{answer}_tests"]:
        return [f"under the answer cell come its self-check, {answer}_check, then its test cell, {answer}_tests"]
    check, tests = (nb.cells[ids.index(f"{answer}{suffix}")] for suffix in ("_check", "_tests"))
    shown, hidden_tests = hidden.split(tests.source)
    found = [f"{answer}_tests, line {line}: give the assertion a message that says what is wrong, never the numbers "
             "(`assert ..., 'what is wrong'`, `err_msg='...'`)" for line in hidden.unsaid(hidden_tests)]
    if not nbgrader_meta(check).get("locked") or nbgrader_meta(check).get("grade"):
        found.append(f"{answer}_check: a self-check is locked and not graded (nbgrader metadata)")
    if not all(nbgrader_meta(tests).get(key) for key in ("grade", "locked", "points")):
        found.append(f"{answer}_tests: a test cell is graded, locked and worth points (nbgrader metadata)")
    heading = next((c.source for c in reversed(nb.cells[:ids.index(answer)]) if c.source.startswith("## ")), "")
    said = re.search(r"\((\d+(?:\.\d+)?) points?\b", heading.partition("\n")[0])
    if said and float(said[1]) != float(nbgrader_meta(tests).get("points") or 0):
        found.append(f"the question's heading says {said[1]} points, its test cell {answer}_tests gives "
                     f"{nbgrader_meta(tests).get('points')}: make them agree")
    if ast.parse(shown).body or not hidden_tests.strip():
        found.append(f"{answer}_tests: put the hidden tests between the markers {HIDDEN_TESTS}, and only comments "
                     "outside them")
    forms = [(path.relative_to(root), answer_source(path, answer))
             for path in answer_files(root / "tests", "correct", answer)]
    if not forms:
        found.append(f"add a correct answer written another way to tests/{answer[:4]}/correct_solutions/<form>.py")
    for who, source in [("the model answer", samples.solutions(nb)[answer]), *forms]:
        (outcome, said), failure = grade(nb, answer, source)
        if outcome != "pass" or "\N{CHECK MARK}" not in said:
            found.append(f"{who} fails its self-check ({outcome}: {said})")
        if failure:
            found.append(f"{who} fails the hidden tests ({failure.ename}: {failure.message}). {HIDDEN_RULE}")
    wrong, where = samples.mistakes(root / "tests", nb, answer), mistakes_file(answer)
    if len(wrong) < 2:
        found.append(f"{where} lists {len(wrong)} mistakes: list at least two, each `name: ('what is wrong. Hint: a "
                     "hint', {model answer's text: the mistake's})`")
    stored = parse(check) is not None  # else judged by a property, its message its own
    for mistake, (told, source) in wrong.items():
        (outcome, said), failure = grade(nb, answer, source)
        problem = " ".join(told.partition("Hint:")[0].split())
        if outcome != "SelfCheckFailed" or stored and f": {problem} Hint: " not in said:
            found.append(f"{where}, mistake {mistake}, is not named by the self-check ({outcome}: "
                         f"{' '.join(said.split())}): add an input on which it gives what the model answer and no "
                         "other mistake gives")
        if re.search(r"\d\.\d{5,}|\[\[", said):
            found.append(f"{where}, mistake {mistake}: the self-check tells precise numbers: {said}")
        if failure is None:
            found.append(f"{where}, mistake {mistake}, passes the hidden tests: make them catch it")
    stub = "".join(line for line in samples.solutions(nb)[answer].splitlines(keepends=True) if "return" not in line)
    (outcome, said), failure = grade(nb, answer, stub.rstrip() + "\n    raise NotImplementedError()\n")
    if "not written yet" not in said:
        found.append(f"the self-check of an unwritten answer does not say so ({outcome}: {said})")
    if failure is None:
        found.append("the student version, its answer unwritten, passes the hidden tests: make them call the function")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("assignments", nargs="*", help="assignments of exercises/source (default: all)")
    parser.add_argument("--question", help="check only this question, by its id (ch03_wavelengths)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the repository (default: this one)")
    options = parser.parse_args(argv)
    root, broken = options.root.resolve(), []
    try:
        Course(root / "exercises").refuse_unfinished("store the self-checks' values")
        paths = sorted(p for a in options.assignments or ["*"] for p in root.glob(f"exercises/source/{a}/*.ipynb"))
        if not paths:
            raise ValueError(f"no notebook in exercises/source/ for {' '.join(options.assignments)}")
        for path in paths:
            nb, changed = refresh(root, path)
            print(f"{path.relative_to(root)}: " + (f"stored {', '.join(changed)}" if changed else "up to date"))
            broken += [f"{answer}: {problem}" for answer in samples.autograded_answers(nb)
                       if options.question in (None, answer) for problem in problems(root, nb, answer)]
    except (ValueError, RuntimeError) as problem:
        print(f"self-checks: {problem}", file=sys.stderr)
        return 2
    print("\n".join(["self-checks: each question breaks these rules (appendix/instructor_guide.md):", *broken]
                    if broken else ["every question passes its checks with each of its answers"]),
          file=sys.stderr if broken else sys.stdout)
    return 2 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
