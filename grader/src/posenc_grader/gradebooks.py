"""Grades and feedback in the forms the platforms take back, as the instructor guide tells (*Back to the platform*).

``OUT/<platform>/gradebook.csv`` holds a row per student placed or on the roster and a column per assignment, named
as the roster names the platform's own column, else as the assignment; ``OUT/hand_back/<platform>/`` holds a zip of
feedback pages per assignment. The forms follow each platform's import code: Canvas's
``GradebookImporter`` (and "Re-upload submissions", which finds a page by the prefix of the file graded), Moodle's
``gradeimport_csv`` (and "Upload multiple feedback files in a zip"), Blackboard's Grade Center upload. A cell holds
a score only once it is final (:attr:`posenc_grader.marks.Mark.cell`; a notebook not handed in counts 0).
"""

from __future__ import annotations

import collections
import json
import zipfile
from pathlib import Path

from .escapes import write_csv
from .marks import Mark
from .records import HAND_BACK, ClassRecord
from .staging import IDENTITIES


def write(out: Path) -> list[str]:
    """Write every platform's gradebook and feedback zips for the students placed into ``out``; say what."""
    if not (out / IDENTITIES).is_file():
        return []
    kept = json.loads((out / IDENTITIES).read_text(encoding="utf-8"))
    record = ClassRecord(out)
    columns = kept.get("columns", {})  # the platform's own name of an assignment's column, from the roster
    points: dict[tuple[str, str], Mark] = collections.defaultdict(Mark)  # the notebooks of an assignment summed
    for key in sorted(record.statuses):
        student, assignment, notebook = key.split("\t")
        points[(student, columns.get(assignment, assignment))] += record.mark((student, assignment, notebook))
    lines = []
    for platform in sorted({who["platform"] for who in kept["students"].values()}):
        if platform not in WRITERS:
            lines.append(f"{platform}: no gradebook file (its scores come from its own autograder)")
            continue
        students = {s: who for s, who in kept["students"].items() if who["platform"] == platform}
        assignments = sorted({a for s, a in points if s in students})
        rows, notes = WRITERS[platform](students, assignments, points)
        lines += [f"wrote {write_csv(out / platform / 'gradebook.csv', rows, quote_all=platform == 'blackboard')}",
                  *notes]
        lines += [f"wrote {path}" for path in _feedback_zips(record, out / HAND_BACK / platform, students,
                                                              kept["notebooks"])]
    return lines


def _cells(student: str, assignments: list[str], points: dict) -> list[str]:
    return [points[(student, a)].cell if (student, a) in points else "" for a in assignments]


def _shown_name(student: str, who: dict) -> str:
    return who.get("student") or who.get("name") or student


def _canvas(students: dict, assignments: list[str], points: dict) -> tuple[list[list[str]], list[str]]:
    possible = [f"{max(m.max_score for (_, a), m in points.items() if a == each):g}" for each in assignments]
    rows = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", *assignments],
            ["Points Possible", "", "", "", "", *possible]]
    for student, who in sorted(students.items()):
        rows.append([_shown_name(student, who), who["platform_id"], who.get("sis_user_id", ""),
                     who.get("sis_login_id", ""), who.get("section", ""), *_cells(student, assignments, points)])
    return rows, []


def _moodle(students: dict, assignments: list[str], points: dict) -> tuple[list[list[str]], list[str]]:
    rows = [["Full name", "ID number", "Email address", *[c for a in assignments for c in (a, f"{a} feedback")]]]
    unknown = sorted(s for s, who in students.items() if not (who.get("id_number") or who.get("email")))
    for student, who in sorted(students.items()):
        found = [points.get((student, a)) for a in assignments]
        if student not in unknown:  # Moodle gives a row with neither to the student of the row above it
            rows.append([_shown_name(student, who), who.get("id_number", ""), who.get("email", ""),
                         *[c for m in found for c in ((m.cell, m.summary + _missing(m)) if m else ("", ""))]])
    note = (f"moodle: left out of gradebook.csv, with neither an ID number nor an email, by which Moodle's grade "
            f"import finds a student: {', '.join(unknown)} (give a roster that has them, --roster)")
    return rows, [note] if unknown else []


def _missing(mark: Mark) -> str:
    return " (missing)" if "missing" in mark.statuses else ""


def _blackboard(students: dict, assignments: list[str], points: dict) -> tuple[list[list[str]], list[str]]:
    rows = [["Username", *assignments]]
    return rows + [[who["platform_id"], *_cells(s, assignments, points)] for s, who in sorted(students.items())], []


def _feedback_zips(record: ClassRecord, folder: Path, students: dict, notebooks: dict) -> list[Path]:
    """One zip per assignment of every placed student's feedback pages, named as the platform takes them."""
    entries: dict[str, list[tuple[Path, str]]] = collections.defaultdict(list)
    for key, where in sorted(notebooks.items()):
        student, assignment, notebook = key.split("\t")
        page = record.page((student, assignment, notebook))
        if student in students and where.get("feedback") and page.is_file():
            entries[assignment].append((page, where["feedback"]))
    written = []
    folder.mkdir(parents=True, exist_ok=True)
    for assignment, pages in sorted(entries.items()):
        path = folder / f"feedback-{assignment}.zip"
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as bundle:
            for page, name in pages:
                bundle.write(page, name)
        written.append(path)
    return written


WRITERS = {"canvas": _canvas, "moodle": _moodle, "blackboard": _blackboard}

