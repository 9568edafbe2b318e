#!/usr/bin/env python3
"""Add an autograded question to an assignment, or check one: ``python tools/new_question.py ASSIGNMENT NAME [POINTS]``.

Also ``make new-question``. It appends the question's four cells (the question, the answer, its self-check, its test
cell), with nbgrader's metadata, to the assignment's source notebook, and templates of its other answers to
``tests/chNN/`` (a correct form in ``correct_solutions/another_form.py``, two mistakes in
``wrong_solutions/<answer>.py``), each saying TODO where the
author is needed; then it writes the points table again. Without POINTS, it checks the question once written
(``tools/self_checks.py``). The rules and the walk-through: appendix/instructor_guide.md, *Adding a question*.
"""

from __future__ import annotations

import argparse
import keyword
import re
import sys
from pathlib import Path

import exercise_table
import nbformat
import self_checks
from nbformat.v4 import new_code_cell, new_markdown_cell

from posenc_grader.course import ANSWER_KINDS, Course, answer_files, grade_id

ROOT = Path(__file__).resolve().parent.parent

SOLUTION = '''def {name}({args}):
    """TODO: what {name} returns, with its shape."""
    ### BEGIN SOLUTION
    raise NotImplementedError("TODO: the model answer")
    ### END SOLUTION'''

CHECK = '''# TODO: a few argument tuples to try, unlike the hidden tests' (or a function of a random generator, rng,
# that makes them), and a hint for a wrong answer. `python tools/self_checks.py` stores the results there.
check({name}, [], hint="TODO: what to try when the answer is wrong")'''

TESTS = '''# The hidden tests of {name}: they alone decide its points when the notebook is graded.
### BEGIN HIDDEN TESTS
from posenc.book.answers import close

# TODO: call {name} on inputs of the tests' own and compare: `assert close({name}(...), want), "what is wrong"`
# (np.allclose, len, abs and helper functions work too). Every assert needs a message: students see it, never this
# code. These lines run in the grader's own Python: numpy is np and {name} is the student's; import the rest.
assert False, "TODO: the hidden tests of {name}"
### END HIDDEN TESTS'''

FORM = '''"""TODO: how this form of correct answers differs from the model answers (a loop, float32, torch, ...)."""
'''

FORM_ANSWER = '''

def {name}({args}):
    raise NotImplementedError("TODO: a correct answer, written another way than the model answer")
'''

MISTAKES = '''"""Mistakes in {name}, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {{
    "mistake_one": ("TODO: what is wrong, as the self-check tells a student who made it. Hint: TODO a hint.",
                    {{"TODO: a piece of the model answer": "TODO: what the mistake writes instead"}}),
    "mistake_two": ("TODO: what is wrong. Hint: TODO a hint.",
                    {{"TODO: a piece of the model answer": "TODO: what the mistake writes instead"}}),
}}
'''


def nbgrader(grade_id: str, *, grade: bool = False, solution: bool = False, locked: bool = True,
             points: int | None = None) -> dict:
    """A cell's nbgrader metadata (schema 3), as ``nbgrader generate_assignment`` expects it."""
    meta = {"grade": grade, "grade_id": grade_id, "locked": locked, "schema_version": 3, "solution": solution}
    return {"nbgrader": meta if points is None else {**meta, "points": points}}


def notebook_of(root: Path, assignment: str) -> tuple[Path, nbformat.NotebookNode]:
    """The one source notebook of ``assignment``, its path and itself, or a ValueError that lists the assignments."""
    course = Course(root / "exercises")
    notebooks = course.assignments()
    if len(notebooks.get(assignment, ())) != 1:
        raise ValueError(f"no assignment {assignment!r} of one notebook in exercises/source: ASSIGNMENT is one of "
                         f"{', '.join(notebooks)}")
    path = course.source(assignment, notebooks[assignment][0])
    return path, nbformat.read(str(path), as_version=4)


def _check_names(root: Path, nb, answer: str, name: str, points: str) -> int:
    if not name.isidentifier() or keyword.iskeyword(name):
        raise ValueError(f"NAME={name!r} must be a Python name (letters, digits, _): the function students write")
    if answer in {grade_id(c) for c in nb.cells} or any(answer_files(root / "tests", kind, answer)
                                                         for kind in ANSWER_KINDS):
        raise ValueError(f"the question {answer} exists already (a cell, or its answers in tests/{answer[:4]}/):"
                         " choose another NAME")
    if not points.isdigit() or int(points) < 1:
        raise ValueError(f"POINTS={points!r} must be a whole number of points, 1 or more")
    return int(points)


def add_question(root: Path, assignment: str, name: str, points: str, args: str = "x") -> list[Path]:
    """Append the question's cells to its notebook and its other answers to the tests; return the files written."""
    (path, nb), prefix = notebook_of(root, assignment), assignment.split("_", 1)[0]
    answer = f"{prefix}_{name}"
    worth = _check_names(root, nb, answer, name, points)
    number = 1 + max((int(m.group(1)) for c in nb.cells if c.cell_type == "markdown"
                      and (m := re.match(r"## (\d+)\.", c.source))), default=0)
    text = (f"## {number}. `{name}` ({worth} point{'s' if worth > 1 else ''})\n\nTODO: the question: what "
            f"`{name}({args})` returns, with its formula and the shape of the result.")
    nb.cells += [new_markdown_cell(text, metadata=nbgrader(f"{prefix}_text_{name}")),
                 new_code_cell(SOLUTION.format(name=name, args=args),
                               metadata=nbgrader(answer, solution=True, locked=False)),
                 new_code_cell(CHECK.format(name=name), metadata=nbgrader(f"{answer}_check")),
                 new_code_cell(TESTS.format(name=name), metadata=nbgrader(f"{answer}_tests", grade=True, points=worth))]
    nbformat.write(nb, str(path))
    tests = root / "tests" / prefix
    form, mistakes = tests / "correct_solutions" / "another_form.py", tests / "wrong_solutions" / f"{answer}.py"
    for folder in (form.parent, mistakes.parent):
        folder.mkdir(parents=True, exist_ok=True)
    form.write_text((form.read_text(encoding="utf-8") if form.exists() else FORM)
                    + FORM_ANSWER.format(name=name, args=args), encoding="utf-8")
    mistakes.write_text(MISTAKES.format(name=name), encoding="utf-8")
    return [path, form, mistakes]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("assignment", help="the assignment's folder in exercises/source, e.g. ch03_ladder")
    parser.add_argument("name", help="the name of the function students write, e.g. longest_wavelength")
    parser.add_argument("points", nargs="?", help="the points of its test cell (leave out to check the question)")
    parser.add_argument("--args", default="x", help="the function's parameters, e.g. 'd, base=10000.0'")
    parser.add_argument("--root", type=Path, default=ROOT, help="the repository (default: this one)")
    options = parser.parse_args(argv)
    answer = f"{options.assignment.split('_', 1)[0]}_{options.name}"
    try:
        if options.points is None:
            if answer not in {grade_id(c) for c in notebook_of(options.root, options.assignment)[1].cells}:
                raise ValueError(f"no question {answer} to check: give POINTS to add it")
            return self_checks.main([options.assignment, "--question", answer, "--root", str(options.root)])
        written = add_question(options.root, options.assignment, options.name, options.points, options.args)
    except ValueError as problem:
        print(f"new question: {problem}", file=sys.stderr)
        return 2
    exercise_table.main(["--root", str(options.root)])
    print("wrote\n" + "\n".join(f"  {path.relative_to(options.root)}" for path in written) +
          "\nNext: replace every TODO there (the question, the model answer, the self-check's inputs and hint, the "
          f"hidden tests and the two files), then check the question with `make new-question ASSIGNMENT="
          f"{options.assignment} NAME={options.name}` (no POINTS) and publish it with `make exercises`.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
