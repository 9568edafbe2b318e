"""Grading a class with real nbgrader: ``python -m posenc_grader SUBMISSIONS_DIR --out OUT_DIR``.

The pipeline, one module per step:

1. :mod:`~posenc_grader.course` prepares the course in ``exercises/`` (``nbgrader generate_assignment``), once
   per change of its sources;
2. :mod:`~posenc_grader.submissions` finds ``<student>/<assignment>/<notebook>.ipynb`` files, tells which
   exercise each one is by its content, and restores its cells; a platform's download is first read by
   :mod:`~posenc_grader.platforms` and laid out that way by :mod:`~posenc_grader.staging`;
3. :mod:`~posenc_grader.parallel` runs :mod:`~posenc_grader.worker` (``nbgrader autograde`` with the executor of
   :mod:`~posenc_grader.execute`) for each notebook in a process of its own; the student's code runs only in the
   kernel, inside :mod:`~posenc_grader.sandbox`, and the hidden tests only outside it
   (:mod:`~posenc_grader.hidden`), on wire data (:mod:`~posenc_grader.wire`);
4. :mod:`~posenc_grader.records` merges the scores into the class gradebook, renders the feedback pages
   (:mod:`~posenc_grader.feedback`) and writes ``grades.csv``; :mod:`~posenc_grader.gradebooks` writes a
   platform's gradebook and feedback zips; :mod:`~posenc_grader.refresh` does both again after grading by hand.

nbgrader is imported only when grading runs. Students install ``posenc``, which holds the rule every self-check
applies (``posenc.book.answers``) and none of this.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import sys
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path

from . import gradebooks, parallel, sandbox, staging
from .course import Course, prepare
from .escapes import disarm
from .platforms import FOLDERS, PLATFORMS, open_download
from .records import COURSE_USED, INSTRUCTOR_ONLY, PREPARED, WORK, ClassRecord, course_used, summarize
from .roster import read_columns, read_roster
from .submissions import Catalog, Row, find_files, triage
from .worker import Limits, grade

__all__ = ["Course", "Limits", "grade_class"]


def grade_class(submissions: Path | str, out: Path | str, *, course: Path | str | None = None,
                limits: Limits | None = None, jobs: int | None = None,
                progress: Callable[[str], None] | None = None, sandboxed: bool = True, platform: str = "auto",
                roster: Path | str | None = None) -> list[dict]:
    """Grade every notebook under ``submissions`` into ``out``; return, for each row of ``out/grades.csv`` graded
    in this run, its ``student``, ``assignment``, ``notebook``, ``score`` (the points given so far),
    ``max_score``, ``status``, ``message``, and ``seconds``, the time its grading took.

    ``submissions`` is a folder ``<student>/<assignment>/<notebook>.ipynb``, or a platform's download (a zip, or
    the folder it unpacks to); ``platform`` says which (:data:`posenc_grader.platforms.PLATFORMS`, ``"folders"``,
    or ``"auto"``: told from the names); ``roster`` maps the platform's ids to the gradebook's names
    (:mod:`posenc_grader.roster`), and its students who handed nothing in get rows marked missing. Raises
    ``ValueError`` for a roster none of whose students handed anything in (another assignment's), and
    ``RuntimeError`` (:class:`~posenc_grader.platforms.NothingToPlace` among them) when nothing can be graded,
    when a question still holds a TODO of ``make new-question``, and where no sandbox can be made, unless
    ``sandboxed`` is False.
    """
    with warnings.catch_warnings():  # nbgrader's own SQLAlchemy and nbformat warnings say nothing to act on
        warnings.simplefilter("ignore")
        return _grade_class(Path(submissions), Path(out), course, limits or Limits(), jobs, progress, sandboxed,
                            platform, roster)


def _grade_class(submissions: Path, out: Path, course, limits: Limits, jobs, progress, sandboxed,
                 platform: str, roster) -> list[dict]:
    if not submissions.exists():
        raise FileNotFoundError(f"grade_class: no folder or zip of submissions at {submissions}")
    the_course = Course.find(course)
    how, last = course_used(out)  # left out, the default course would be followed back into out
    if course is None and last and Path(last) != the_course.root and (how == "named" or Path(last).is_dir()):
        raise RuntimeError(f"{out} was last graded with the course {last}, not {the_course.root}: name the "
                           "course to grade with, --course (make grade COURSE=...)")  # (a checkout moved is none)
    people = read_roster(roster) if roster else {}
    max_bytes = limits.max_file_mb * 2**20
    own = submissions.resolve().is_relative_to((out / INSTRUCTOR_ONLY / "submitted").resolve())
    if platform == "auto" and own:
        platform = FOLDERS  # OUT's own copies, graded again: folders the gradebook named, whatever they look like
    download = open_download(submissions, out / WORK / "download", platform, max_bytes)
    if download is None and not find_files(submissions):
        raise RuntimeError(f"nothing to grade in {submissions}: no <student>/<assignment>/ folder holds a notebook, "
                           f"and the names follow no download of {', '.join(PLATFORMS)} (see --platform)")
    if sandboxed and sandbox.problem():
        raise RuntimeError(f"refusing to grade: {sandbox.problem()}")
    show = progress or (lambda line: print(line, file=sys.stderr, flush=True))

    def say(*lines: str) -> None:  # student and file names are the students': no escape sequence reaches a terminal
        for line in lines:
            show(disarm(line))

    say(f"sandbox: {sandbox.describe()}" if sandboxed else "no sandbox (--no-sandbox): student code runs as you")
    sandbox.compile_kernel_imports()
    say(f"preparing the course {the_course.root} (nbgrader generate_assignment, cached)")
    prepared = prepare(the_course, out / PREPARED)
    record = ClassRecord(out, prepared)
    refused, frozen = record.follow(prepared)
    say(*refused)
    (out / COURSE_USED).write_text(f"{'named' if course else 'default'}\t{the_course.root}", encoding="utf-8")
    catalog = Catalog(prepared / "release")
    earlier = record.handed_in()  # never marked missing by a later run (late work graded into the same OUT)
    why_missing: dict[tuple[str, str], str] = {}  # a download's reason, for the row's message
    if download is not None:
        placements = staging.stage(download, catalog, people, out, max_bytes, read_columns(roster) if roster else {},
                                   frozenset(key[:2] for key in earlier), frozenset(frozen))
        say(*staging.summary(download.platform, placements))
        submissions = out / staging.STAGED
        why_missing = {p.key[:2]: p.reason for p in placements if p.outcome == "missing"}  # shown to the student too
    rows = [row for row in triage(find_files(submissions), catalog, max_bytes)
            if not (row.status == "missing" and row.key in earlier)]
    the_course.refuse_unfinished("grade", {row.assignment for row in rows if row.content is not None})
    rows = [row for row in rows if not (own and row.path is None)]  # OUT's own copies: no row made for a gap
    # an assignment this OUT cannot follow, or a kept copy that cannot be graded now: never a kept copy or grade lost
    held = [row for row in rows if row.assignment in frozen or own and row.content is None]
    for row in held:
        say(f"warning: not graded, as it was before: {row.student}/{row.assignment}/{row.notebook} ({row.path})")
    rows = [row for row in rows if row not in held]
    for row in rows if own else []:  # restored when first graded: what was repaired then is said again
        repairs = record.statuses.get("\t".join(row.key), {}).get("repairs")
        if repairs and row.status in ("ok", "repaired"):
            row.status, row.notes = "repaired", list(dict.fromkeys(repairs + row.notes))
    for row in rows:
        if row.status == "missing" and row.key[:2] in why_missing:
            row.notes = [why_missing[row.key[:2]]]
    done: list[dict] = []

    def finish(row: Row, result: dict | None, seconds: float) -> None:
        status, message = summarize(row, result, limits)
        try:
            mark = record.record(row, result, status, message)
        except Exception as error:  # noqa: BLE001 -- one row never stops the class: kept for review, without files
            status, message = "grader_error", f"recording it failed ({type(error).__name__}: {error})"
            mark = record.record(dataclasses.replace(row, content=None), None, status, message)
        message = record.statuses["\t".join(row.key)]["message"]  # with what recording added (a resubmission)
        done.append({"student": row.student, "assignment": row.assignment, "notebook": row.notebook,
                     "score": mark.score, "max_score": mark.max_score, "status": status, "message": message,
                     "seconds": seconds})
        say(f"[{len(done):>{len(str(len(rows)))}}/{len(rows)}] {row.student} · {row.assignment}/{row.notebook}: "
            f"{mark.summary} {status} ({seconds:.1f} s)")

    for row in rows:
        if row.content is None:
            finish(row, None, 0.0)
    to_grade = [row for row in rows if row.content is not None]
    jobs = jobs or len(os.sched_getaffinity(0))
    say(f"grading {len(to_grade)} notebook{'s' * (len(to_grade) != 1)}, {jobs} at a time")
    scratch = Path(tempfile.mkdtemp(prefix="run-", dir=out / WORK))
    try:
        parallel.run([{"row": row, "prepared": prepared, "limits": limits, "sandboxed": sandboxed}
                      for row in to_grade], grade,
                     scratch, jobs=jobs, timeout=limits.notebook_timeout,
                     memory_bytes=(limits.memory_mb + 2048) * 2**20,
                     done=lambda task, result, seconds: finish(task["row"], result, seconds))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    say(f"wrote {record.write_csv()}")
    say(*gradebooks.write(out))
    say(*record.warnings())
    return done
