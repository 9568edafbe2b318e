"""Submissions made from the course itself, for tests, benchmarks and an instructor's dry run: ``filled(release,
{})`` is a blank submission, ``filled(release, solutions(source))`` a perfect one, and replacing one answer with one
of its listed :func:`mistakes` gives a submission that should lose exactly that answer's points.
"""

from __future__ import annotations

import copy
import runpy
from pathlib import Path

from nbformat import NotebookNode

from .course import SOLUTION, answer_files, grade_id, nbgrader_meta


def solutions(source: NotebookNode) -> dict[str, str]:
    """``{grade id: model answer}`` for every answer cell (code or written) of a source notebook: its lines less the
    :data:`~posenc_grader.course.SOLUTION` markers."""
    return {grade_id(cell): "\n".join(line for line in cell.source.split("\n") if line.strip() not in SOLUTION)
            for cell in source.cells if nbgrader_meta(cell).get("solution")}


def mistakes(tests: Path, source: NotebookNode, answer: str) -> dict[str, tuple[str, str]]:
    """The listed mistakes of the question ``answer`` of the source notebook ``source``, ``{name: (what is wrong and
    its hint, the wrong answer)}``, from ``tests/chNN/wrong_solutions/<answer>.py`` (none when it is missing).

    That file holds ``MISTAKES = {name: ("what is wrong. Hint: a hint", {old: new, ...})}``: a mistake is the model
    answer with each ``old`` text, which it holds exactly once, made ``new``, in turn. A ``ValueError`` names a change
    that does not apply (the model answer was edited since)."""
    listed, model = {}, solutions(source)[answer]
    for path in answer_files(tests, "wrong", answer):
        for name, (said, changes) in runpy.run_path(str(path))["MISTAKES"].items():
            wrong = model
            for old, new in changes.items():
                if (count := wrong.count(old)) != 1:
                    where = "is not in" if count == 0 else f"is {count} times in"
                    raise ValueError(f"{'/'.join(path.parts[-4:])}, mistake {name}: {old!r} {where} the model answer, "
                                     "where a change must find it once: quote more of it, or mend the change")
                wrong = wrong.replace(old, new)
            listed[name] = (said, wrong)
    return listed


def autograded_answers(source: NotebookNode) -> list[str]:
    """Grade ids of the answer cells whose tests are run by the autograder (code answers)."""
    return [grade_id(c) for c in source.cells if c.cell_type == "code" and nbgrader_meta(c).get("solution")]


def filled(release: NotebookNode, answers: dict[str, str]) -> NotebookNode:
    """A copy of the student version with the given answer cells' text replaced."""
    nb = copy.deepcopy(release)
    for cell in nb.cells:
        if grade_id(cell) in answers:
            cell.source = answers[grade_id(cell)]
    return nb
