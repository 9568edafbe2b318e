"""What grading leaves behind in ``OUT_DIR`` (the instructor guide lists it): :data:`HAND_BACK`, what students may
receive; :data:`INSTRUCTOR_ONLY`, what never leaves (an nbgrader course directory with the class gradebook); and
``grades.csv`` (:data:`COLUMNS`).

Each graded notebook is written into the gradebook with nbgrader's own API, overwriting the automatic scores of an
earlier run and keeping any manual ones; the status and message of every row live in ``grading_status.json``.
``grades.csv`` and the feedback pages are written from those two, after every run and again by
:mod:`~posenc_grader.refresh` after grading by hand, so grading again loses and duplicates nothing, and a page
always shows the scores the gradebook holds.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import html
import json
import shutil
from pathlib import Path

import nbformat

from .course import Course, generate_in, same_notebooks
from .escapes import write_csv
from .marks import CHANGED, Mark
from .submissions import Row

HAND_BACK = "hand_back"              # what students may receive
INSTRUCTOR_ONLY = "instructor_only"  # what never leaves: solutions, hidden tests, the gradebook, all submissions
WORK = Path(INSTRUCTOR_ONLY) / ".grading"  # the grader's own files: the prepared course, a download, scratch
COURSE_USED = WORK / "course"  # how the last grading into OUT named its course ("named" or "default"), tab, where
PREPARED = WORK / "prepared"
#: What an nbgrader exchange's ``collect`` puts beside a submission, and ``nbgrader release_feedback`` reads beside its
#: page: when it was handed in, and the student's own secret that names the page in the exchange.
EXCHANGE_FILES = ("timestamp.txt", "submission_secret.txt")

#: Appended to the class course's ``nbgrader_config.py``: nbgrader's own feedback (``nbgrader generate_feedback``
#: or the formgrader's button, run in ``instructor_only``) then cuts the hidden tests too, and every page nbconvert
#: renders there (the formgrader's included) is sanitized, whatever the course's own configuration says.
SAFE_FEEDBACK = """
# Added by posenc_grader: nbgrader's own feedback pages cut the hidden tests too, and no page shows live markup of
# a student's. Refresh the pages students receive (OUT/hand_back) with `make feedback` or
# `python -m posenc_grader.refresh OUT`.
c.GenerateFeedback.preprocessors = ["posenc_grader.feedback.HideHiddenTests", "nbgrader.preprocessors.GetGrades",
                                    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor"]
c.HTMLExporter.preprocessors = ["posenc_grader.sanitize.Sanitize"]
"""
#: What grades.csv adds to the message of a row graded before its assignment changed (``stale``), until it is graded
#: again (:meth:`ClassRecord.follow`).
STALE = ("; graded before the assignment changed: grade it again (the instructor guide, *Changing an assignment after "
         "grading*)")
#: A page that could not be drawn says, in place of the scores (which the gradebook and grades.csv keep):
PAGE_ERROR = "this page could not be drawn from your notebook; your instructor has your scores and will send them"
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
#: ``score`` is empty until it is final (``progress`` then says what is open: "13/13 autograded, 2 by hand pending").
COLUMNS = ["student", "assignment", "notebook", "score", "max_score", "progress", "status", "message"]
#: What an event of :class:`~posenc_grader.execute.GradingExecute` means for its row: a status, and a note.
EVENTS = {
    "timeout": ("timeout", "{cell} ran past the limit of {limits.cell_timeout} s and failed (an endless loop?)"),
    "crashed": ("crashed", "{cell} killed the kernel; it was restarted and the cells after it graded"),
    "memory": ("memory", "{cell} ran out of memory (limit {limits.memory_mb} MiB)"),
    "gave_up": ("crashed", "after {cell} the kernel had failed too often; the cells after it were not run"),
    "kernel_retry": ("ok", "the kernel did not start at first ({why}); it was started again"),
    "output_cut": ("ok", "the output of {cell} was cut to {limits.max_output_chars:,} characters"),
}


def write_json(path: Path, data) -> None:
    """Write ``data`` to the JSON file ``path`` whole: a reader never finds half of it (a grading stopped midway)."""
    partial = path.with_suffix(".tmp")
    partial.write_text(json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    partial.replace(path)


def summarize(row: Row, result: dict | None, limits) -> tuple[str, str]:
    """The status and the message of a row, from what triage found and what happened while grading."""
    statuses, notes = [row.status], list(row.notes)
    if result is not None and "error" in result:
        statuses.append("timeout" if result.get("killed") else "grader_error")
        notes.append(result["error"] if result.get("killed") else f"grader error: {result['error']}")
    for event in (result or {}).get("events", []):
        if event["kind"] in EVENTS:
            status, note = EVENTS[event["kind"]]
            statuses.append(status)
            notes.append(note.format(cell=event.get("cell"), why=event.get("why", ""), limits=limits))
    if (result or {}).get("tampered"):
        statuses.append("tampered")
        notes.append("a cell that must fail did not: the kernel's error reporting was altered, so no test "
                     "result can be trusted")
    if row.flags:
        statuses.append("flagged")
        notes.append("for review: " + "; ".join(row.flags))
    status = next(s for s in STATUSES if s in statuses)
    return status, "; ".join(notes) or STATUSES[status]


class ClassRecord:
    """The class gradebook, grade sheet and feedback pages in ``out``.

    ``prepared`` is the prepared course (:func:`posenc_grader.course.prepare`) from which the gradebook is
    created on first use; without it, ``out`` must have been graded before (``FileNotFoundError`` if not).
    """

    def __init__(self, out: Path, prepared: Path | None = None):
        self.out, self.course = out, out / INSTRUCTOR_ONLY
        if prepared is None and not (self.course / "gradebook.db").is_file():
            raise FileNotFoundError(f"nothing was graded into {out}: no {self.course / 'gradebook.db'}")
        self.course.mkdir(parents=True, exist_ok=True)
        if not (self.course / "gradebook.db").exists():
            shutil.copy(prepared / "gradebook.db", self.course / "gradebook.db")
        if not (self.course / "nbgrader_config.py").exists():
            config = (prepared / "nbgrader_config.py").read_text(encoding="utf-8")
            (self.course / "nbgrader_config.py").write_text(config + SAFE_FEEDBACK, encoding="utf-8")
        if not (self.course / "source").exists():
            shutil.copytree(prepared / "source", self.course / "source")
        self.db_url = f"sqlite:///{self.course / 'gradebook.db'}"
        self.status_file = self.course / "grading_status.json"
        self.statuses = json.loads(self.status_file.read_text(encoding="utf-8")) if self.status_file.is_file() else {}
        self._know()

    def _know(self) -> None:
        with self._gradebook() as gb:
            self.known = {(a.name, n.name) for a in gb.assignments for n in a.notebooks}

    def follow(self, prepared: Path) -> tuple[list[str], set[str]]:
        """Bring each assignment of the class course whose source differs from ``prepared``'s (a test fixed, points
        or a text changed since ``out`` was graded) up to it: its source, and the class gradebook's cells, by
        nbgrader's own ``generate_assignment``. Rows of a notebook graded before the change wait (``stale``, and
        their pages drawn again) until they are graded again. nbgrader refuses a cell or a notebook added or removed
        once there are submissions: then that assignment and its gradebook stay as they were. Returns a warning for
        each such assignment, and their names: this ``out`` grades none of their files now."""
        refused, frozen, marked = [], set(), []
        for new in sorted(p for p in (prepared / "source").iterdir() if p.is_dir()):
            old = self.course / "source" / new.name
            changed = {p.stem for p in new.glob("*.ipynb") if not (old / p.name).is_file()
                       or not same_notebooks(p, old / p.name)} | {p.stem for p in old.glob("*.ipynb")
                                                                  if not (new / p.name).is_file()}
            if not changed:
                continue
            notebooks = {(new.name, stem) for stem in changed}
            waiting = [key for key, entry in self.statuses.items() if not entry.get("stale")
                       and tuple(key.split("\t")[1:]) in notebooks
                       and self._path("autograded", tuple(key.split("\t"))).is_file()]  # else 0 either way
            self._mark_stale(waiting, True)  # first: a run stopped midway leaves them waiting, never unmarked
            if refusal := self._swap(new, old):
                self._mark_stale(waiting, False)
                frozen.add(new.name)
                refused.append(f"warning: {new.name} has changed since {self.out} was graded in a way its gradebook "
                               f"cannot follow (nbgrader: {refusal}): none of its files is graded into it; grade them "
                               "into a new OUT (the instructor guide, *Changing an assignment after grading*)")
                continue
            marked += waiting
        self._know()
        for key in marked:  # its page says it waits, as grades.csv and the platforms' gradebooks do
            self.write_page(tuple(key.split("\t")))
        return refused, frozen

    def _mark_stale(self, keys: list[str], stale: bool) -> None:
        for key in keys:
            self.statuses[key]["stale"] = stale
        write_json(self.status_file, self.statuses)

    def _swap(self, new: Path, old: Path) -> str:
        """Put the source ``new`` in place of ``old`` and update the gradebook by nbgrader; where nbgrader refuses
        the change, or anything fails or stops it, the source and the gradebook are put back as they were (nbgrader
        commits cell by cell). Return nbgrader's refusal (:func:`_refusal`), or '' when the change was made."""
        kept, book, backup = self.out / WORK / "source-before", self.course / "gradebook.db", self.out / WORK / "gb.db"
        shutil.rmtree(kept, ignore_errors=True)
        shutil.copy(book, backup)
        try:
            if old.is_dir():
                shutil.move(old, kept)
            shutil.copytree(new, old)
            generate_in(Course(self.course), [new.name])
        except BaseException as error:
            shutil.rmtree(old, ignore_errors=True)
            if kept.is_dir():
                shutil.move(kept, old)
            shutil.copy(backup, book)
            if isinstance(error, RuntimeError) and (refusal := _refusal(str(error))):
                return refusal
            raise
        finally:
            backup.unlink(missing_ok=True)
        shutil.rmtree(kept, ignore_errors=True)
        return ""

    def warnings(self) -> list[str]:
        """Warnings, each with what to do: rows graded before their assignment changed and not since
        (:meth:`follow`), with the command that grades them again (against the course last graded with); manual scores
        that stand over automatic ones that changed since (a test fixed after a grade by hand)."""
        stale = sorted(key.replace("\t", "/") for key, entry in self.statuses.items() if entry.get("stale"))
        standing = [f"{key.split(chr(9))[0]}/{cell}" for key, entry in sorted(self.statuses.items())
                    for cell in entry.get("overridden", []) if self._manual(key, cell) is not None]
        _, used = course_used(self.out)
        course = f" --course '{used}'" if used else ""
        return [f"warning: {what} ({len(rows)}: {', '.join(rows[:3])}{', ...' if len(rows) > 3 else ''}): {fix}"
                for what, rows, fix in [
                    ("notebooks graded before their assignment changed, not since", stale, "grade them again, "
                     f"`python -m posenc_grader '{self.course / 'submitted'}' --out '{self.out}'{course}`"),
                    ("manual scores stand over automatic ones that changed since", standing, "empty the cell's score "
                     "box in the formgrader for the new one to count, then `make feedback`")] if rows]

    def _manual(self, key: str, cell: str) -> float | None:
        """The manual score of one cell of a row, or None."""
        from nbgrader.api import MissingEntry

        student, assignment, notebook = key.split("\t")
        with self._gradebook() as gb, contextlib.suppress(MissingEntry):
            return gb.find_grade(cell, notebook, assignment, student).manual_score
        return None

    def _gradebook(self):
        from nbgrader.api import Gradebook

        return Gradebook(self.db_url)

    def _path(self, kind: str, key: tuple[str, str, str]) -> Path:
        student, assignment, notebook = key
        return self.course / kind / student / assignment / f"{notebook}.ipynb"

    def page(self, key: tuple[str, str, str]) -> Path:
        """Where the feedback page of a row goes: ``hand_back/feedback/<student>/<assignment>/<notebook>.html``."""
        student, assignment, notebook = key
        return self.out / HAND_BACK / "feedback" / student / assignment / f"{notebook}.html"

    def record(self, row: Row, result: dict | None, status: str, message: str) -> Mark:
        """Store one row: scores in the gradebook, files in place, status and message, its feedback page.

        A file other than the one graded before (its cells' sources differ from those recorded, or from
        ``submitted/``'s: a resubmission; or no file, before or now) clears the row's manual scores and comments,
        which were given to another file, and the message says so; only the same file graded again keeps them."""
        from .sanitize import Sanitize

        graded = result is not None and "grades" in result
        inert = None if row.content is None else Sanitize().preprocess(copy.deepcopy(row.content), {})[0]
        before, key = self._path("submitted", row.key), "\t".join(row.key)
        digest = None if row.content is None else hashlib.sha256(repr(_sources(row.content)).encode()).hexdigest()
        recorded = self.statuses.get(key, {}).get("file")
        kept = _sources(nbformat.read(str(before), 4)) if before.is_file() else None
        # the same file: its sources as recorded (whatever a later sanitizer makes of them), the copy kept of it made
        # inert again (not always what one pass left), or that copy itself (graded again from submitted/)
        changed = inert is None or not (digest == recorded or kept in (_sources(inert), _sources(row.content)))
        cleared, overridden = self._store_scores(
            row, result["grades"] if graded else None, result.get("comments", {}) if graded else {}, changed) if (
            row.assignment, row.notebook) in self.known else (False, [])
        if cleared:
            message += ("; graded from a new file: the manual scores and comments given to the earlier one were "
                        "cleared")
        for kind in ("submitted", "autograded"):
            self._path(kind, row.key).unlink(missing_ok=True)
        if inert is not None:  # the formgrader's folder: what the student wrote, made inert
            before.parent.mkdir(parents=True, exist_ok=True)
            nbformat.write(inert, str(before))
        if graded:
            target = self._path("autograded", row.key)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(result["autograded"], target)
            if message != STATUSES["ok"]:  # the grader's notes on this submission, at the top of its page
                notebook = nbformat.read(str(target), as_version=4)
                # a <pre> block: the file names in the message are the students', shown as text, never as Markdown
                notes = f"**Grading notes.**\n\n<pre>{html.escape(f'{status}: {message}')}</pre>"
                notebook.cells.insert(0, nbformat.v4.new_markdown_cell(notes))
                nbformat.write(notebook, str(target))
        # an override still standing is said until cleared
        standing = [c for c in self.statuses.get(key, {}).get("overridden", []) if self._manual(key, c) is not None]
        overridden = list(dict.fromkeys(overridden + ([] if changed else standing)))
        file = recorded if recorded and not changed else digest  # the file as first handed in, not its kept copy
        self.statuses[key] = {"status": status, "message": message, **({"file": file} if file else {}),
                              **({"repairs": row.notes} if row.status == "repaired" else {}),
                              **({"overridden": overridden} if overridden else {})}
        write_json(self.status_file, self.statuses)
        page = self.write_page(row.key)
        for found in [row.path.parent / name for name in EXCHANGE_FILES] if row.path else []:
            if found.is_file() and not found.is_symlink() and found.stat().st_size <= 1024:
                shutil.copyfile(found, page.parent / found.name)
        return self.mark(row.key)

    def _store_scores(self, row: Row, grades: dict | None, comments: dict, clear_manual: bool) -> tuple[bool, list]:
        """Write automatic scores as nbgrader's ``SaveAutoGrades`` would; no file means zero everywhere. A cell needs
        manual grading while it has no manual score, where nbgrader says so or it has no automatic score. With
        ``clear_manual``, remove the manual scores and comments first. Return whether there were any, and the cells
        whose manual score stands over an automatic one that changed (a test fixed after a grade by hand)."""
        with self._gradebook() as gb:
            gb.update_or_create_student(row.student)
            gb.update_or_create_submission(row.assignment, row.student)
            submission = gb.find_submission_notebook(row.notebook, row.assignment, row.student)
            cleared = clear_manual and any(grade.manual_score is not None for grade in submission.grades)
            overridden = []
            for grade in submission.grades:
                if clear_manual:
                    grade.manual_score = None
                auto, _, review = (grades or {}).get(grade.name, [0.0, None, False])
                if grade.manual_score is not None and None not in (grade.auto_score, auto) and grade.auto_score != auto:
                    overridden.append(grade.name)
                grade.auto_score = auto
                grade.needs_manual_grade = grade.manual_score is None and (review or auto is None)
            for comment in submission.comments:
                comment.auto_comment = comments.get(comment.name)
                if clear_manual:  # written on the earlier file
                    comment.manual_comment = None
            gb.db.commit()
        return cleared, overridden

    def write_page(self, key: tuple[str, str, str]) -> Path:
        """Write the feedback page of a row from its autograded notebook and the gradebook as they are now."""
        from . import feedback

        page, autograded, entry = self.page(key), self._path("autograded", key), self.statuses["\t".join(key)]
        page.parent.mkdir(parents=True, exist_ok=True)
        if autograded.is_file() and key[1:] in self.known:
            try:
                text = feedback.render(autograded, key, self.mark(key).summary, self.db_url)
            except Exception:  # noqa: BLE001 -- one page that cannot be drawn never stops the others
                text = feedback.plain_page(key[1], key[2], "page_error", PAGE_ERROR)
        else:
            text = feedback.plain_page(key[1], key[2], entry["status"], entry["message"])
        page.write_text(text, encoding="utf-8")
        return page

    def handed_in(self) -> frozenset[tuple[str, str, str]]:
        """The rows graded from a file the student handed in (any status but ``missing``), in any run."""
        return frozenset(tuple(key.split("\t")) for key, entry in self.statuses.items() if entry["status"] != "missing")

    def mark(self, key: tuple[str, str, str]) -> Mark:
        """The points of one row in the gradebook, manual scores included, with its status; empty if unknown."""
        from nbgrader.api import MissingEntry

        student, assignment, notebook = key
        entry = self.statuses.get("\t".join(key))
        mark = Mark(statuses=[entry["status"]] + [CHANGED] * bool(entry.get("stale")) if entry else [])
        with self._gradebook() as gb, contextlib.suppress(MissingEntry):  # a notebook or a row it does not know
            for grade in gb.find_submission_notebook(notebook, assignment, student).grades:
                mark.add(grade)
        return mark

    def write_csv(self) -> Path:
        """``grades.csv``: one row per (student, assignment, notebook) ever graded into this directory."""
        rows = [COLUMNS]
        for key in sorted(self.statuses):
            parts = tuple(key.split("\t"))
            mark, entry = self.mark(parts), self.statuses[key]
            rows.append([*parts, mark.cell, f"{mark.max_score:g}", "" if mark.final else mark.summary,
                         entry["status"], entry["message"] + (STALE if entry.get("stale") else "")])
        return write_csv(self.out / "grades.csv", rows)


def course_used(out: Path) -> tuple[str, str]:
    """How the last grading into ``out`` named its course (``"named"``, ``"default"``, or ``""`` where an earlier
    grader kept only the place) and where it was; ``("", "")`` before any grading (:data:`COURSE_USED`)."""
    used = out / COURSE_USED
    how, _, where = used.read_text(encoding="utf-8").rpartition("\t") if used.is_file() else ("", "", "")
    return how, where


def _refusal(log: str) -> str:
    """The line of nbgrader's log where it refuses to change cells or notebooks that have submissions, or ''."""
    return next((line.strip() for line in log.splitlines()
                 if "Cannot add or remove cells" in line or "Cannot modify existing assignment" in line), "")


def _sources(notebook) -> list[tuple]:
    """What the student wrote: the cells not locked, each its type, source and attachments (a pasted figure); a
    changed question text is no new file."""
    return [(cell.cell_type, cell.source, cell.get("attachments")) for cell in notebook.cells
            if not cell.get("metadata", {}).get("nbgrader", {}).get("locked")]

