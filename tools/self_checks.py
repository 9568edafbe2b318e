#!/usr/bin/env python3
"""Store the self-checks' values: ``python tools/self_checks.py [ASSIGNMENT ...]`` (``make exercises`` runs it).

A self-check is the locked, ungraded cell ``<answer>_check`` under an answer: one call
``check(NAME, stored, hint=...)`` of :mod:`posenc.book.answers`. This tool writes ``stored`` from what the
instructor keeps out of the students' sight: the model answer (the answer cell of the source notebook) and the
listed mistakes (``tests/chNN/wrong_solutions/<answer>/*.py``, each docstring ``what is wrong. Hint: a hint``). The
inputs are those stored already, or, for a new question, the argument tuples the author writes in place of
``stored`` (a list, or a function of a seeded random generator ``rng`` that makes one). It refuses a question
whose model answer fails its own self-check or whose inputs do not tell each listed mistake from the others.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import sys
import textwrap
import zlib
from pathlib import Path

import nbformat
import numpy as np

from posenc.book import answers
from posenc_grader import samples
from posenc_grader.course import answer_files, nbgrader_meta

ROOT = Path(__file__).resolve().parent.parent


def check_cells(nb) -> dict[str, nbformat.NotebookNode]:
    """``{answer id: its self-check cell}``."""
    return {nbgrader_meta(c)["grade_id"][: -len("_check")]: c for c in nb.cells
            if nbgrader_meta(c).get("grade_id", "").endswith("_check")}


def setup_cells(nb) -> list[str]:
    """The locked code cells that every answer runs after: imports and given functions (not the self-checks)."""
    return [c.source for c in nb.cells if c.cell_type == "code" and nbgrader_meta(c).get("locked")
            and not nbgrader_meta(c).get("grade") and not nbgrader_meta(c)["grade_id"].endswith("_check")]


def defined(setup: list[str], source: str, name: str):
    """The function ``name`` that ``source`` defines after the set-up cells have run."""
    namespace = {"__name__": "__main__"}
    with contextlib.redirect_stdout(io.StringIO()):
        for cell in [*setup, source]:
            exec(cell, namespace)
    return namespace[name]


def mistakes(root: Path, setup: list[str], answer: str, name: str) -> list[tuple]:
    """``(function, what is wrong, hint)`` for each listed mistake, ``tests/chNN/wrong_solutions/<answer>/*.py``."""
    listed = []
    for path in answer_files(root / "tests", "wrong", answer):
        source = path.read_text(encoding="utf-8")
        problem, _, hint = (ast.get_docstring(ast.parse(source)) or "").partition("Hint:")
        if not hint.strip():
            raise ValueError(f"{path.relative_to(root)}: its docstring says what is wrong, then 'Hint: ...'")
        listed.append((defined(setup, source, name), " ".join(problem.split()), " ".join(hint.split())))
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


def refresh(root: Path, path: Path) -> list[str]:
    """Write the stored values of every self-check of the source notebook ``path``; the answers changed."""
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
        model, listed = defined(setup, model_answers[answer], name), mistakes(root, setup, answer, name)
        stored = answers.store(cases, model, listed)
        _validate(answer, stored, keywords, model, listed)
        source = render(name, stored, keywords)
        if source != cell.source:
            cell.source, changed = source, [*changed, answer]
    if changed:
        nbformat.write(nb, str(path))
    return changed


def _validate(answer: str, stored: str, keywords: dict, model, listed: list[tuple]) -> None:
    """The model answer passes the stored self-check, and each listed mistake is named by its own message."""
    with contextlib.redirect_stdout(io.StringIO()):
        answers.check(model, stored, **keywords)
        for function, problem, _ in listed:
            try:
                answers.check(function, stored, **keywords)
            except answers.SelfCheckFailed as failed:
                if f": {problem} Hint: " not in str(failed):
                    raise ValueError(f"{answer}: the inputs do not tell the mistake {problem!r} apart ({failed}); "
                                     "add an input on which it gives what no other mistake gives") from None
            else:
                raise ValueError(f"{answer}: the mistake {problem!r} passes the self-check; add an input that shows it")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("assignments", nargs="*", help="assignments of exercises/source (default: all)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the repository (default: this one)")
    options = parser.parse_args(argv)
    source = options.root / "exercises" / "source"
    try:
        for path in sorted(p for a in options.assignments or ["*"] for p in source.glob(f"{a}/*.ipynb")):
            changed = refresh(options.root, path)
            print(f"{path.relative_to(options.root)}: " + (f"stored {', '.join(changed)}" if changed else "up to date"))
    except ValueError as problem:
        print(f"self-checks: {problem}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
