"""What the grading tests share, no test itself: the course, its rotation notebook answered, writing submissions, what
a graded student printed, and a stand-in for nbgrader's formgrader."""

from __future__ import annotations

import secrets
from pathlib import Path

import nbformat

from posenc_grader import samples, sandbox
from posenc_grader.course import Course
from posenc_grader.records import INSTRUCTOR_ONLY

ROOT = Path(__file__).resolve().parent.parent
COURSE = Course.find(ROOT / "exercises")
ROTATION = ("ch04_rotation", "rotation")
SANDBOXED = sandbox.problem() is None
CLOCKWISE = (ROOT / "tests" / "ch04" / "wrong_solutions" / "ch04_rotation" / "clockwise.py").read_text()
ENV_NAME, ENV_SECRET = "POSENC_GRADER_TOKEN", f"posenc-token-{secrets.token_hex(8)}"  # in the grader's environment


def read(kind: str, assignment: str = ROTATION[0], notebook: str = ROTATION[1]) -> nbformat.NotebookNode:
    return nbformat.read(str(COURSE.root / kind / assignment / f"{notebook}.ipynb"), as_version=4)


def solved(answers: dict[str, str] | None = None) -> nbformat.NotebookNode:
    """The rotation notebook with the model answers, some of them replaced by ``answers``."""
    return samples.filled(read("release"), {**samples.solutions(read("source")), **(answers or {})})


def write(path: Path, content) -> None:
    """Write ``content``, a notebook or raw text, to ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        nbformat.write(content, str(path))


def printed(out: Path, student: str) -> str:
    """What the code cells of ``student``'s rotation notebook printed, from its autograded notebook in ``out``."""
    autograded = nbformat.read(str(out / INSTRUCTOR_ONLY / "autograded" / student / ROTATION[0] / "rotation.ipynb"), 4)
    return "".join(o.get("text", "") for c in autograded.cells if c.cell_type == "code" for o in c.outputs)


def grade_by_hand(out: Path, student: str, scores: dict[str, float], comment: str = "") -> None:
    """What nbgrader's formgrader does: manual scores on written answers of the rotation notebook, a comment on one."""
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{out / INSTRUCTOR_ONLY / 'gradebook.db'}") as gb:
        for cell, score in scores.items():
            gb.find_grade(cell, ROTATION[1], ROTATION[0], student).manual_score = score
        gb.find_comment(next(iter(scores)), ROTATION[1], ROTATION[0], student).manual_comment = comment or None
        gb.db.commit()
