"""What the grading tests share, no test itself: the course, its rotation notebook answered, writing submissions,
grading them, the attacks a submission makes and what a graded student printed, and a stand-in for nbgrader's
formgrader."""

from __future__ import annotations

import os
import secrets
import shutil
from pathlib import Path

import nbformat

from posenc_grader import Limits, grade_class, samples, sandbox
from posenc_grader.course import Course
from posenc_grader.records import INSTRUCTOR_ONLY, PREPARED

ROOT = Path(__file__).resolve().parent.parent
COURSE = Course.find(ROOT / "exercises")
ROTATION = ("ch04_rotation", "rotation")
SANDBOXED = sandbox.problem() is None
ENV_NAME, ENV_SECRET = "POSENC_GRADER_TOKEN", f"posenc-token-{secrets.token_hex(8)}"  # in the grader's environment
LIMITS = Limits(cell_timeout=12, notebook_timeout=150, memory_mb=2048, max_file_mb=2)  # torch needs 1 GiB
# (a cell that imports torch took over 5 s on a machine at load 8: the time limit must leave room for that)
#: A submission's attack on the grader's environment: its own variables and every process's it can read.
READ_ENVIRONMENT = ("import glob, os\nseen = [repr(dict(os.environ))]\nfor path in glob.glob('/proc/*/environ'):\n"
                    "    try:\n        seen.append(open(path, 'rb').read().decode(errors='replace'))\n"
                    "    except OSError:\n        pass\nprint(*seen)\n"
                    f"assert any({ENV_NAME!r} in text for text in seen), 'no variable of the grader in sight'")


def read(kind: str, assignment: str = ROTATION[0], notebook: str = ROTATION[1]) -> nbformat.NotebookNode:
    return nbformat.read(str(COURSE.root / kind / assignment / f"{notebook}.ipynb"), as_version=4)


CLOCKWISE = samples.mistakes(ROOT / "tests", read("source"), "ch04_rotation")["clockwise"][1]


def solved(answers: dict[str, str] | None = None) -> nbformat.NotebookNode:
    """The rotation notebook with the model answers, some of them replaced by ``answers``."""
    return samples.filled(read("release"), {**samples.solutions(read("source")), **(answers or {})})


def write(path: Path, content) -> Path:
    """Write ``content``, a notebook, raw text or bytes, to ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, str | bytes):
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    else:
        nbformat.write(content, str(path))
    return path


def grade(submissions: Path, out: Path, prepared_course: Path, **options) -> list[dict]:
    """``grade_class`` as the tests run it: from the prepared course, two notebooks at a time, within ``LIMITS``, in
    the sandbox where there is one, saying nothing (``options`` change any of these)."""
    if not (out / PREPARED).exists():  # graded again: the copy is there
        shutil.copytree(prepared_course, out / PREPARED)
    return grade_class(submissions, out, **{"limits": LIMITS, "jobs": 2, "progress": lambda line: None,
                                            "sandboxed": SANDBOXED, **options})


def attack(name: str, code: str) -> str:
    """A cell that tries ``code`` and prints ``ATTACK <name>: succeeded`` or ``ATTACK <name>: failed (<error>)``."""
    body = "\n".join("    " + line for line in code.splitlines())
    return (f"try:\n{body}\n    print({f'ATTACK {name}: succeeded'!r})\n"
            f"except Exception as error:\n    print({f'ATTACK {name}: failed ('!r} + repr(error) + ')')")


def machine_secrets() -> list[str]:
    """What no submission may read: the grader's variable, and the lines of /etc/shadow where we can read it."""
    shadow = Path("/etc/shadow")
    lines = shadow.read_text().splitlines() if os.access(shadow, os.R_OK) else []
    return [ENV_SECRET, *(line for line in lines if line.strip())]


def printed(out: Path, student: str) -> str:
    """What the code cells of ``student``'s rotation notebook printed, from its autograded notebook in ``out``."""
    autograded = nbformat.read(str(out / INSTRUCTOR_ONLY / "autograded" / student / ROTATION[0] / "rotation.ipynb"), 4)
    return "".join(o.get("text", "") for c in autograded.cells if c.cell_type == "code" for o in c.outputs)


def kernel_ids(said: str) -> tuple[int, int, str]:
    """``(uid, gid, groups)`` of the kernel, from the line ``ids ...`` that an attack printed."""
    ids = next(line.split() for line in said.splitlines() if line.startswith("ids "))
    return int(ids[1]), int(ids[2]), " ".join(ids[3:])


def grade_by_hand(out: Path, student: str, scores: dict[str, float], comment: str = "") -> None:
    """What nbgrader's formgrader does: manual scores on written answers of the rotation notebook, a comment on one."""
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{out / INSTRUCTOR_ONLY / 'gradebook.db'}") as gb:
        for cell, score in scores.items():
            gb.find_grade(cell, ROTATION[1], ROTATION[0], student).manual_score = score
        gb.find_comment(next(iter(scores)), ROTATION[1], ROTATION[0], student).manual_comment = comment or None
        gb.db.commit()
