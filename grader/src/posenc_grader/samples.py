"""Submissions made from the course itself, for tests, benchmarks and an instructor's dry run: ``filled(release,
{})`` is a blank submission, ``filled(release, solutions(source))`` a perfect one, and replacing one answer with a
wrong one gives a submission that should lose exactly that answer's points.
"""

from __future__ import annotations

import copy

from nbformat import NotebookNode

from .course import SOLUTION, grade_id, nbgrader_meta


def _without_markers(source: str) -> str:
    return "\n".join(line for line in source.split("\n") if line.strip() not in SOLUTION)


def solutions(source: NotebookNode) -> dict[str, str]:
    """``{grade id: model answer}`` for every answer cell (code or written) of a source notebook."""
    return {grade_id(cell): _without_markers(cell.source) for cell in source.cells
            if nbgrader_meta(cell).get("solution")}


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
