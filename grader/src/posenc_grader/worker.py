"""Grading one submission with nbgrader, alone in a scratch course directory.

Each submission is graded in a course directory of its own, holding a copy of the prepared gradebook,
so that parallel workers never share a SQLite file; the parent process merges the scores into the
class gradebook afterwards and renders the feedback page from it (:mod:`posenc_grader.records`,
:mod:`posenc_grader.feedback`). Inside, it is plain nbgrader ``autograde``, with
:class:`~posenc_grader.execute.GradingExecute` as its executor.
"""

from __future__ import annotations

import copy
import json
import shutil
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path

import nbformat

from . import hidden, integrity
from .course import Course, ensure_tools_on_path
from .submissions import Row

STUDENT = "student"   # the id inside the scratch course: real names may hold characters nbgrader globs on


@dataclass(frozen=True)
class Limits:
    """What one submission may use. Times in seconds, sizes in MiB (characters for output).

    ``memory_mb`` limits the grading kernel; the worker process around it may use 2 GiB more, so that
    it survives to report a kernel that printed or allocated too much.
    """

    cell_timeout: int = 15
    notebook_timeout: int = 300
    memory_mb: int = 2048
    max_file_mb: int = 20
    max_output_chars: int = 20_000


def configure(course_dir: Path, limits: Limits, report: Path, private: Path, sandboxed: bool,
              source: nbformat.NotebookNode):
    """The course's nbgrader configuration, pointed at ``course_dir``, with the grading executor and limits. The
    kernel works in ``private``, never in ``course_dir``, whose scratch gradebook it could otherwise rewrite."""
    from nbgrader.converters import Autograde
    from nbgrader.preprocessors import Execute

    from .execute import GradingExecute
    from .sanitize import Sanitize

    config = Course(course_dir).config()
    config.CourseDirectory.root = str(course_dir)
    # nbgrader's own steps, GradingExecute in place of Execute; Sanitize last: after grading, before any view
    steps = Autograde.class_traits()["autograde_preprocessors"].default()
    config.Autograde.autograde_preprocessors = [*(GradingExecute if s is Execute else s for s in steps), Sanitize]
    config.Execute.timeout = limits.cell_timeout
    config.GradingExecute.shutdown_kernel = "immediate"  # a finished kernel is discarded: killed, not waited for
    config.GradingExecute.memory_limit = limits.memory_mb * 2**20
    config.GradingExecute.max_output_chars = limits.max_output_chars
    config.GradingExecute.report_path = str(report)
    config.GradingExecute.private_dir = str(private)
    config.GradingExecute.sandboxed = sandboxed
    config.GradingExecute.answer_names = hidden.answer_functions(source)
    config.GradingExecute.hidden_tests = hidden.tests_of(source)
    return config


def grade(row: Row, prepared: Path, workdir: Path, limits: Limits, sandboxed: bool = True) -> dict:
    """Autograde the restored notebook of ``row`` in a scratch copy of the prepared course.

    Returns the scores of every graded cell (``{grade_id: [auto_score, max_score, needs_manual_grade]}``),
    the events of :class:`~posenc_grader.execute.GradingExecute`, and the path of the autograded notebook
    under ``workdir``, which holds the hidden tests.
    """
    from nbgrader.api import Gradebook
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory

    ensure_tools_on_path()
    warnings.filterwarnings("ignore")
    assignment, notebook = row.assignment, row.notebook
    course = workdir / "course"
    (course / "source").mkdir(parents=True)
    shutil.copy(prepared / "gradebook.db", course / "gradebook.db")
    shutil.copy(prepared / "nbgrader_config.py", course / "nbgrader_config.py")
    shutil.copytree(prepared / "source" / assignment, course / "source" / assignment)
    submitted = course / "submitted" / STUDENT / assignment / f"{notebook}.ipynb"
    submitted.parent.mkdir(parents=True)
    content = copy.deepcopy(row.content)
    for cell in content.cells:  # only the grader's own canary may carry the canary's mark
        cell.metadata.pop(integrity.CANARY, None)
    content.cells.append(integrity.canary_cell())
    nbformat.write(content, str(submitted))

    report = workdir / "report.json"
    # The kernel's private folder: a copy of this one submission, its connection file and Unix sockets. Short
    # (under /tmp) because a Unix socket's path has at most 107 characters.
    private = Path(tempfile.mkdtemp(prefix="posenc-kernel-"))
    try:
        shutil.copy(submitted, private / submitted.name)
        source = nbformat.read(str(course / "source" / assignment / f"{notebook}.ipynb"), as_version=4)
        config = configure(course, limits, report, private, sandboxed, source)
        api = NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)
        outcome = api.autograde(assignment, STUDENT)
    finally:
        shutil.rmtree(private, ignore_errors=True)
    events = json.loads(report.read_text()) if report.is_file() else []
    if not outcome["success"]:  # nbgrader's log, its last lines
        log = outcome.get("log") or outcome.get("error") or "nbgrader autograde failed"
        return {"error": "\n".join(log.strip().splitlines()[-12:]), "events": events}
    tampered = any(e["kind"] == "canary" and e["ok"] is False for e in events)
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        submission = gb.find_submission_notebook(notebook, assignment, STUDENT)
        if tampered:
            for g in submission.grades:
                g.auto_score, g.needs_manual_grade = 0.0, True
            gb.db.commit()
        grades = {g.name: [g.auto_score, g.max_score, bool(g.needs_manual_grade)] for g in submission.grades}
        comments = {c.name: c.auto_comment for c in submission.comments}
    autograded = course / "autograded" / STUDENT / assignment / f"{notebook}.ipynb"
    return {"grades": grades, "comments": comments, "events": events, "tampered": tampered,
            "autograded": str(autograded)}
