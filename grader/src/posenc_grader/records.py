"""What grading leaves behind in ``OUT_DIR``: an nbgrader course with the class gradebook, and ``grades.csv``.

``OUT_DIR`` is itself an nbgrader course directory (``nbgrader_config.py``, ``source/``, ``gradebook.db``,
``submitted/``, ``autograded/``, ``feedback/``), so ``nbgrader formgrade``, ``generate_feedback`` and
``export`` work there afterwards. Each graded notebook is written into the gradebook with nbgrader's
own API, overwriting the automatic scores of an earlier run and keeping any manual ones; the status and
message of every row live in ``grading_status.json``. ``grades.csv`` is rewritten from those two after
every run, one row per student, assignment and notebook, so grading again loses and duplicates nothing.
"""

from __future__ import annotations

import csv
import html
import json
import os
import shutil
from pathlib import Path

import nbformat

from .escapes import disarm
from .submissions import Row

#: Every status, the most serious first; a row takes the most serious that applies.
STATUSES = {
    "grader_error": "the grader itself failed on this file; grade it by hand and report the message",
    "too_large": "the file is too large to be graded",
    "unreadable": "the file is not a Jupyter notebook",
    "wrong_notebook": "the file is not this exercise's notebook",
    "missing": "no file was submitted for this notebook",
    "tampered": "the submission altered the grading itself; score set to 0 until reviewed",
    "crashed": "a cell killed the kernel; the rest was graded after a restart",
    "timeout": "a cell ran past the time limit and failed",
    "memory": "a cell ran out of memory and failed",
    "flagged": "code that alters numpy, the self-checks or Python itself; graded normally, worth a look",
    "repaired": "the notebook's cells were changed; graded after restoring the handed-out structure",
    "ok": "graded",
}
COLUMNS = ["student", "assignment", "notebook", "score", "max_score", "status", "message"]
EVENT_STATUS = {"crashed": "crashed", "gave_up": "crashed", "timeout": "timeout", "memory": "memory"}


def summarize(row: Row, result: dict | None, limits) -> tuple[str, str]:
    """The status and the message of a row, from what triage found and what happened while grading."""
    statuses, notes = [row.status], list(row.notes)
    if result is not None and "error" in result:
        statuses.append("timeout" if result.get("killed") else "grader_error")
        notes.append(result["error"] if result.get("killed") else f"grader error: {result['error']}")
    for event in (result or {}).get("events", []):
        kind, cell = event["kind"], event.get("cell")
        if kind == "timeout":
            notes.append(f"{cell} ran past the limit of {limits.cell_timeout} s and failed (an endless loop?)")
        elif kind == "crashed":
            notes.append(f"{cell} killed the kernel; it was restarted and the cells after it graded")
        elif kind == "memory":
            notes.append(f"{cell} ran out of memory (limit {limits.memory_mb} MiB)")
        elif kind == "gave_up":
            notes.append(f"after {cell} the kernel had failed too often; the cells after it were not run")
        elif kind == "kernel_retry":
            notes.append(f"the kernel did not start at first ({event.get('why', '')}); it was started again")
        elif kind == "output_cut":
            notes.append(f"the output of {cell} was cut to {limits.max_output_chars:,} characters")
        statuses.append(EVENT_STATUS.get(kind, "ok"))
    if (result or {}).get("tampered"):
        statuses.append("tampered")
        notes.append("a cell that must fail did not: the kernel's error reporting was altered, so no test "
                     "result can be trusted")
    pending = sum(m for auto, m, _ in (result or {}).get("grades", {}).values() if auto is None)
    if pending:
        notes.append(f"{pending:g} points of written answers await grading by hand")
    if row.flags:
        statuses.append("flagged")
        notes.append("for review: " + "; ".join(row.flags))
    status = next(s for s in STATUSES if s in statuses)
    return status, "; ".join(notes) or STATUSES[status]


class ClassRecord:
    """The class gradebook and grade sheet in ``out``, created from the prepared course on first use."""

    def __init__(self, out: Path, prepared: Path):
        self.out = out
        out.mkdir(parents=True, exist_ok=True)
        for name in ("nbgrader_config.py", "gradebook.db"):
            if not (out / name).exists():
                shutil.copy(prepared / name, out / name)
        if not (out / "source").exists():
            shutil.copytree(prepared / "source", out / "source")
        self.db_url = f"sqlite:///{out / 'gradebook.db'}"
        self.status_file = out / "grading_status.json"
        self.statuses = json.loads(self.status_file.read_text(encoding="utf-8")) if self.status_file.is_file() else {}
        with self._gradebook() as gb:
            self.known = {(a.name, n.name) for a in gb.assignments for n in a.notebooks}

    def _gradebook(self):
        from nbgrader.api import Gradebook

        return Gradebook(self.db_url)

    def _path(self, kind: str, row: Row, suffix: str) -> Path:
        return self.out / kind / row.student / row.assignment / f"{row.notebook}{suffix}"

    def record(self, row: Row, result: dict | None, status: str, message: str) -> tuple[float, float]:
        """Store one row: scores in the gradebook, files in place, status and message; return the score."""
        graded = result is not None and "grades" in result
        if (row.assignment, row.notebook) in self.known:
            self._store_scores(row, result["grades"] if graded else None, result.get("comments", {}) if graded else {})
        for kind, suffix in (("submitted", ".ipynb"), ("autograded", ".ipynb"), ("feedback", ".html")):
            self._path(kind, row, suffix).unlink(missing_ok=True)
        if row.content is not None:
            target = self._path("submitted", row, ".ipynb")
            target.parent.mkdir(parents=True, exist_ok=True)
            nbformat.write(row.content, str(target))
        if graded:
            self._copy(result["autograded"], self._path("autograded", row, ".ipynb"))
        if graded and result.get("feedback"):
            self._copy(result["feedback"], self._path("feedback", row, ".html"))
        else:
            self._write_plain_feedback(row, status, message)
        self.statuses["\t".join(row.key)] = {"status": status, "message": message}
        self._save_statuses()
        return self.score(row.key)

    def _copy(self, source: str, target: Path) -> None:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)

    def _store_scores(self, row: Row, grades: dict | None, comments: dict) -> None:
        """Write automatic scores as nbgrader's ``SaveAutoGrades`` would; no file means zero everywhere."""
        with self._gradebook() as gb:
            gb.update_or_create_student(row.student)
            gb.update_or_create_submission(row.assignment, row.student)
            submission = gb.find_submission_notebook(row.notebook, row.assignment, row.student)
            for grade in submission.grades:
                auto, _, review = (grades or {}).get(grade.name, [0.0, None, False])
                grade.auto_score = auto
                grade.needs_manual_grade = review or grade.manual_score is not None or auto is None
            for comment in submission.comments:
                comment.auto_comment = comments.get(comment.name)
            gb.db.commit()

    def _write_plain_feedback(self, row: Row, status: str, message: str) -> None:
        page = self._path("feedback", row, ".html")
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(
            f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(row.notebook)}</title></head>"
            f"<body><h1>{html.escape(row.assignment)} / {html.escape(row.notebook)}.ipynb: not graded</h1>"
            f"<p><b>{html.escape(status)}</b>: {html.escape(message)}</p></body></html>\n", encoding="utf-8")

    def _save_statuses(self) -> None:
        partial = self.status_file.with_suffix(".tmp")
        partial.write_text(json.dumps(self.statuses, indent=1, ensure_ascii=False, sort_keys=True), encoding="utf-8")
        os.replace(partial, self.status_file)

    def score(self, key: tuple[str, str, str]) -> tuple[float, float]:
        """Score and maximum of one notebook in the gradebook (manual scores included); 0, 0 if unknown."""
        from nbgrader.api import MissingEntry

        student, assignment, notebook = key
        if (assignment, notebook) not in self.known:
            return 0.0, 0.0
        with self._gradebook() as gb:
            try:
                submission = gb.find_submission_notebook(notebook, assignment, student)
            except MissingEntry:
                return 0.0, 0.0
            return float(submission.score), float(submission.max_score)

    def write_csv(self) -> Path:
        """``grades.csv``: one row per (student, assignment, notebook) ever graded into this directory."""
        path = self.out / "grades.csv"
        with open(path, "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(COLUMNS)
            for key in sorted(self.statuses):
                parts = tuple(key.split("\t"))
                score, max_score = self.score(parts)
                entry = self.statuses[key]
                cells = [*parts, f"{score:g}", f"{max_score:g}", entry["status"], entry["message"]]
                writer.writerow([disarm(cell) for cell in cells])  # names and messages come from submissions
        return path
