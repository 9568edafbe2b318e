"""The class roster: who each platform id is in the gradebook (``--roster CSV``, optional).

A roster is a CSV file with a header and one row per student. One column holds the platform's id of the student,
as the download names them, under a header of :data:`HEADERS` (matched without regard to case), so that the
platforms' own exports serve as they are; the other columns are optional. A column of the platform's own for an
assignment, which its gradebook import matches by more than the name, names that assignment's column in the
gradebook written back (:func:`read_columns`): Canvas's ``ch03_ladder (4242)`` (the assignment's id),
Blackboard's ``ch03_ladder [Total Pts: 12 Score] |5151`` (the Column ID).
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

#: Each field of :class:`Person`, and the headers that may hold it (the first found counts): the id is Canvas's
#: gradebook export's ``ID``, Moodle's worksheet's ``Identifier``, Blackboard's ``Username``, Gradescope's ``SID``.
HEADERS = {
    "platform_id": ("platform_id", "id", "identifier", "username", "sid"),
    "student": ("student", "full name", "name"),
    "email": ("email", "email address"),
    "id_number": ("id_number", "id number"),
    "sis_user_id": ("sis_user_id", "sis user id"),
    "sis_login_id": ("sis_login_id", "sis login id"),
    "section": ("section",),
}
PLATFORM_COLUMN = re.compile(r"(?P<assignment>.+?)\s*(?:\(\d+\)|\[[^\]]*\]\s*\|\s*\d+)")  # see above
MOODLE_ID_PREFIX = "participant "  # Moodle's grading worksheet writes "Participant 123456"


@dataclass(frozen=True)
class Person:
    """What the roster says about one student; empty strings where it says nothing."""

    platform_id: str
    student: str = ""
    email: str = ""
    id_number: str = ""
    sis_user_id: str = ""
    sis_login_id: str = ""
    section: str = ""


def read_roster(path: Path | str) -> dict[str, Person]:
    """``{platform id: Person}`` from the roster CSV at ``path``.

    Raises ``ValueError`` naming the problem when no column holds platform ids, or when an id or a student
    appears twice (two people under one name would have their grades mixed).
    """
    table = _table(path)
    if not table:
        raise ValueError(f"roster {path}: the file is empty")
    lower = [h.strip().lower() for h in table[0]]
    column = {name: next(lower.index(h) for h in aliases if h in lower)
              for name, aliases in HEADERS.items() if set(aliases) & set(lower)}
    if "platform_id" not in column:
        raise ValueError(f"roster {path}: no column of platform ids (a header among "
                         f"{', '.join(HEADERS['platform_id'])})")
    people: dict[str, Person] = {}
    named: dict[str, str] = {}  # student: platform id
    for number, row in enumerate(table[1:], start=2):
        values = {name: row[index].strip() if index < len(row) else "" for name, index in column.items()}
        if values["platform_id"].lower().startswith(MOODLE_ID_PREFIX):
            values["platform_id"] = values["platform_id"][len(MOODLE_ID_PREFIX):].strip()
        person = Person(**values)
        if not person.platform_id:
            continue  # Canvas's export has a "Points Possible" row, a spreadsheet blank lines
        if person.platform_id in people:
            raise ValueError(f"roster {path}, line {number}: the platform id {person.platform_id} appears twice")
        if person.student and person.student in named:
            raise ValueError(f"roster {path}: the student {person.student!r} has two platform ids "
                             f"({named[person.student]}, {person.platform_id})")
        people[person.platform_id], named[person.student] = person, person.platform_id
    return people


def read_columns(path: Path | str) -> dict[str, str]:
    """``{assignment: header}`` for each column of the roster at ``path`` that is a platform's own for an assignment."""
    header = next(iter(_table(path)), [])
    return {m["assignment"]: h.strip() for h in header if (m := PLATFORM_COLUMN.fullmatch(h.strip()))}


def _table(path: Path | str) -> list[list[str]]:
    """The rows of a roster: comma- or tab-separated, in UTF-8 or, as Blackboard's Grade Center download (``.xls``)
    is, UTF-16."""
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-16" if data[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValueError(f"roster {path}: not text in UTF-8 or UTF-16 ({error.reason}): save it as CSV") from None
    first = text.split("\n", 1)[0]
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=max(",\t", key=first.count)))
