"""A platform download laid out as ``<student>/<assignment>/<notebook>.ipynb``, and the run's report of it.

:func:`stage` places each file that :mod:`~posenc_grader.platforms` found under the roster's name of its platform
id, else the platform's name and id together (``Ada Lovelace_123456``, so that two students of one name stay two),
as the exercise its cells say it is, whatever it is called (the instructor guide gives the rules). The placed
files are copied into ``OUT/instructor_only/.grading/staged``, which grading reads as any folder of that layout.
Every file and every missing student gets a row in ``OUT/placements.csv``; ``OUT/instructor_only/placements.json``
keeps, across runs, who each graded student is on the platform, where their feedback goes back, and the
roster's names of the assignments' columns, for :mod:`~posenc_grader.gradebooks`.
"""

from __future__ import annotations

import collections
import csv
import json
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path

from .escapes import safe_name, write_csv
from .platforms import Download, Found, NothingToPlace, is_notebook
from .records import INSTRUCTOR_ONLY, WORK, write_json
from .roster import Person
from .submissions import NOTEBOOK_SUFFIX, Catalog, read

STAGED = WORK / "staged"
REPORT = "placements.csv"
IDENTITIES = Path(INSTRUCTOR_ONLY) / "placements.json"
UNRECOGNISED = "unrecognised"  # a known student's notebook of no exercise, until _assign_the_unrecognised decides
REPORT_COLUMNS = ["file", "platform", "platform_id", "name", "student", "assignment", "notebook", "attempt", "late",
                  "outcome", "reason"]


@dataclass
class Placement:
    """What became of one file of a download: ``placed``, ``earlier attempt`` or ``rejected``, and why."""

    found: Found
    student: str = ""
    assignment: str = ""
    notebook: str = ""
    outcome: str = "rejected"
    reason: str = ""
    person: Person | None = None

    @property
    def key(self) -> tuple[str, str, str]:
        return self.student, self.assignment, self.notebook


def stage(download: Download, catalog: Catalog, roster: dict[str, Person], out: Path, max_bytes: int,
          columns: dict[str, str] | None = None, graded: frozenset[tuple[str, str]] = frozenset(),
          frozen: frozenset[str] = frozenset()) -> list[Placement]:
    """Place every file of ``download`` into :data:`STAGED`, write the report, and return the placements (or raise
    :class:`~posenc_grader.platforms.NothingToPlace`). ``columns`` names the assignments' gradebook columns;
    ``graded`` holds the (student, assignment) pairs graded from a file in an earlier run into ``out``, which this
    one never marks missing (a download of late work). Raises ``ValueError`` for a roster none of whose platform
    ids has a file in the download (another assignment's: Moodle's participant ids are each assignment's own).
    A file of an assignment in ``frozen`` (changed in a way ``out`` cannot follow) is rejected, with its reason."""
    if roster and not any(_person(found, roster) for found in download.found):
        raise ValueError(f"the roster matches no file of this {download.platform} download: none of its "
                         f"{len(roster)} platform ids handed one in. Is it another assignment's? Give this "
                         "assignment's roster (on Moodle, the grading worksheet of this assignment)")
    kept = _kept(out / IDENTITIES)
    # {platform id: student} as earlier runs into OUT placed them: each is graded under that name again (_names)
    known = {who["platform_id"]: s for s, who in kept["students"].items() if who["platform"] == download.platform}
    names = _names(download, roster, known)
    placements = [_place(found, catalog, roster, names, max_bytes) for found in download.found]
    for p in placements:
        if p.outcome == "placed" and p.assignment in frozen:
            p.outcome, p.reason = "rejected", (f"{p.assignment} has changed in a way this OUT cannot follow (see the "
                                               "warning): grade it into a new OUT")
    _refuse_other_assignments(placements, kept)
    _assign_the_unrecognised(placements, catalog)
    _keep_the_latest(placements, kept, download.platform)
    placements += _missing(placements, roster, graded, known)
    _refuse_shared_names(placements)
    write_report(out / REPORT, download.platform, placements)
    placed = [p for p in placements if p.outcome == "placed"]
    if not placed:
        reasons = collections.Counter(p.reason for p in placements).most_common(3)
        raise NothingToPlace(f"nothing in this {download.platform} download can be graded (see {out / REPORT}): "
                             + "; ".join(f"{_files(n)}: {reason}" for reason, n in reasons))
    folder = out / STAGED
    shutil.rmtree(folder, ignore_errors=True)
    for p in placed:
        target = folder / p.student / p.assignment / f"{p.notebook}{NOTEBOOK_SUFFIX}"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(p.found.path, target)
    missing = [p for p in placements if p.outcome == "missing"]
    for p in missing:
        (folder / p.student / p.assignment).mkdir(parents=True, exist_ok=True)  # graded as missing: no notebook
    _keep_identities(out / IDENTITIES, download.platform, placed + missing, columns or {})
    return placements


def summary(platform: str, placements: list[Placement]) -> list[str]:
    """Lines for the instructor's terminal: the counts, then every file that was not placed and why."""
    counts = collections.Counter(p.outcome for p in placements)
    lines = [f"{platform} download: {_files(len(placements) - counts['missing'])}, " + ", ".join(
        f"{counts[o]} {o}" for o in ("placed", "earlier attempt", "rejected") if counts[o]) + f" (see {REPORT})"]
    lines += [f"  not graded: {p.found.shown}: {p.reason}" for p in placements if p.outcome == "rejected"]
    missing = sorted({f"{p.student} ({p.found.platform_id})" for p in placements if p.outcome == "missing"})
    assignment = next((p.assignment for p in placements if p.outcome == "missing"), "")
    warning = (f"warning: {len(missing)} student{'s' * (len(missing) > 1)} of the roster handed in nothing for "
               f"{assignment} that could be graded, marked missing (0): {', '.join(missing)}")
    return lines + ([warning] if missing else [])


def _files(count: int) -> str:
    return f"{count} file{'s' * (count != 1)}"


def _person(found: Found, roster: dict[str, Person]) -> Person | None:
    """The roster's entry for the submitter of ``found``, by platform id or email."""
    return roster.get(found.platform_id) or roster.get(found.email)


def _names(download: Download, roster: dict[str, Person], known: dict[str, str]) -> dict[str, str]:
    """``{platform id: student}``: the one name all of an id's files are graded under. The name an earlier run
    into the same ``OUT`` gave the id (``known``) wins over the roster, which may have renamed the student since;
    else the roster's name; else the platform's name of the id's latest attempt (a display name changed between
    uploads), with the id."""
    names = {}
    for found in sorted((f for f in download.found if f.platform_id), key=lambda f: f.order):
        own = found.platform_id if found.name in ("", found.platform_id) else f"{found.name}_{found.platform_id}"
        names[found.platform_id] = _name(found.platform_id, _person(found, roster), own, known)
    return names


def _name(platform_id: str, person: Person | None, own: str, known: dict[str, str]) -> str:
    return known.get(platform_id) or safe_name(person.student if person and person.student else own)


def _place(found: Found, catalog: Catalog, roster: dict[str, Person], names: dict[str, str],
           max_bytes: int) -> Placement:
    if found.problem or found.path is None:
        return Placement(found, reason=found.problem)
    person = _person(found, roster)
    placement = Placement(found, names[found.platform_id], person=person)
    if not is_notebook(found.path.name):
        placement.reason = f"not a notebook ({found.path.suffix or 'no extension'})"
        return placement
    size = found.path.stat().st_size
    if size > max_bytes:
        placement.reason = f"too large: {size / 2**20:.1f} MB, above the limit of {max_bytes / 2**20:.0f} MB"
        return placement
    nb, problem = read(found.path, max_bytes)
    exercise = catalog.identify(nb) if nb is not None else None
    if exercise is None:
        placement.outcome = UNRECOGNISED
        placement.reason = problem or "no cell of it belongs to any exercise notebook of the course"
        return placement
    placement.assignment, placement.notebook = exercise
    placement.outcome = "placed"
    if roster and person is None:
        placement.reason = "not in the roster: graded under the platform's name and id"
    elif person and person.student and safe_name(person.student) != placement.student:
        placement.reason = (f"graded as {placement.student!r}, the name earlier runs into this OUT gave platform id "
                            f"{found.platform_id}; the roster now calls them {person.student!r}")
    return placement


def _missing(placements: list[Placement], roster: dict[str, Person], graded: frozenset[tuple[str, str]],
             known: dict[str, str]) -> list[Placement]:
    """A ``missing`` placement for each student of the roster of whom no file was placed in the assignment the
    download is for (:func:`_download_assignment`), unless an earlier run graded one (``graded``); under the name
    an earlier run gave their platform id (``known``), if one did."""
    assignment = _download_assignment(placements)
    handed_in = {p.person for p in placements if p.outcome in ("placed", "earlier attempt") and
                 p.assignment == assignment}
    tried = {p.found.platform_id for p in placements}
    return [Placement(Found(None, "", platform_id=person.platform_id, name=person.student),
                      student, assignment, outcome="missing", person=person,
                      reason="no file of theirs is this assignment's notebook" if person.platform_id in tried
                      else "handed nothing in")
            for person in roster.values() if assignment and person not in handed_in
            for student in [_name(person.platform_id, person, person.platform_id, known)]
            if (student, assignment) not in graded]


def _download_assignment(placements: list[Placement]) -> str | None:
    """The assignment a download is for: the one most of its students handed in a notebook of (a platform's download
    is one assignment's; students, not files, so that copies of one student's outvote no class). None when two
    assignments tie, or nothing is placed."""
    handed_in = {(p.assignment, p.found.platform_id) for p in placements if p.outcome == "placed"}
    counts = collections.Counter(assignment for assignment, _ in handed_in).most_common(2)
    return counts[0][0] if counts and (len(counts) == 1 or counts[1][1] < counts[0][1]) else None


def _refuse_shared_names(placements: list[Placement]) -> None:
    """Files of two platform ids that would be graded under one name (a roster's doing) are not placed."""
    ids: dict[str, set[str]] = collections.defaultdict(set)
    for p in placements:
        if p.student:
            ids[p.student].add(p.found.platform_id)
    for p in placements:
        if p.outcome != "rejected" and len(ids[p.student]) > 1:
            p.outcome = "rejected"
            p.reason = (f"the platform ids {', '.join(sorted(ids[p.student]))} would all be graded as {p.student!r}: "
                        "none is, until the roster tells them apart")


def _refuse_other_assignments(placements: list[Placement], kept: dict) -> None:
    """A notebook of another assignment than the download's (:func:`_download_assignment`; any, where two tie) is not
    graded from it where an earlier run into the same ``OUT`` graded that student's notebook from another file: it
    would replace what that assignment's own download gave (a draft handed in to the wrong assignment, which every
    later download holds again; last week's work finished late and handed in through this week's). Where nothing was
    graded, it is graded as what it is (one upload for two chapters)."""
    assignment = _download_assignment(placements)
    for p in placements:
        if p.outcome != "placed" or p.assignment == assignment:
            continue
        before = kept["notebooks"].get("\t".join(p.key), {}).get("file")
        handed = f"the notebook of {p.assignment}, handed in to {assignment or 'this download'}"
        if before in (None, p.found.shown):
            p.reason = "; ".join(filter(None, [p.reason, f"{handed}: graded as what it is"]))
        else:
            p.outcome = "rejected"
            p.reason = f"{handed}: it would replace {before}, graded from {p.assignment}'s own download"


def _assign_the_unrecognised(placements: list[Placement], catalog: Catalog) -> None:
    """A known student's notebook of no exercise goes to the assignment most of the download is (scored 0).

    Only where that assignment is one notebook and no other assignment ties with it; elsewhere it is rejected.
    """
    assignment = _download_assignment(placements)
    notebooks = catalog.assignments.get(assignment, []) if assignment else []
    for p in placements:
        if p.outcome != UNRECOGNISED:
            continue
        if len(notebooks) == 1:
            p.assignment, p.notebook, p.outcome = assignment, notebooks[0], "placed"
            p.reason = f"graded as {p.assignment} (what this download is) and scored 0: {p.reason}"
        else:
            p.outcome = "rejected"


def _keep_the_latest(placements: list[Placement], kept: dict, platform: str) -> None:
    """Of the files placed at one (student, assignment, notebook), the latest attempt stays; the rest are listed. All
    of them are earlier attempts when that latest is older than the one an earlier run into the same ``OUT`` graded
    (an older download graded again): they never replace the later one."""
    groups: dict[tuple, list[Placement]] = collections.defaultdict(list)
    for p in placements:
        if p.outcome == "placed":
            groups[p.key].append(p)
    for key, group in groups.items():
        group.sort(key=lambda p: (p.found.order, _named_as_handed_out(p), p.found.path.stat().st_mtime))
        latest, before = group[-1], kept["notebooks"].get("\t".join(key), {})
        if ("order" in before and latest.found.order < tuple(before["order"])
                and kept["students"].get(key[0], {}).get("platform") == platform):
            for p in group:
                p.outcome = "earlier attempt"
                p.reason = f"a later attempt, {before['file']}, was graded in an earlier run"
            continue
        for p in group[:-1]:
            p.outcome = "earlier attempt"
            same = p.found.order == latest.found.order
            p.reason = (f"{'another file of the same attempt' if same else 'a later attempt'}, "
                        f"{latest.found.shown}, was graded")


def write_report(path: Path, platform: str, placements: list[Placement]) -> None:
    """``placements.csv``: a row per file of the download and per student missing, after the rows of earlier runs
    into the same ``OUT`` (their late flags kept) that this run's do not replace. A row replaces the earlier row of
    its file (platform, file and platform id), or of its student's notebook missing from its assignment; a file
    placed now makes an earlier run's file placed at the same notebook an earlier attempt."""
    rows = [[p.found.shown, platform, p.found.platform_id, p.found.name, p.student, p.assignment, p.notebook,
             p.found.attempt, "late" if p.found.late else "", p.outcome, p.reason] for p in placements]
    replaced = {key for row in rows for key in _report_keys(row)}
    earlier = []
    if path.is_file():
        with open(path, newline="", encoding="utf-8") as f:
            earlier = [row for row in list(csv.reader(f))[1:] if _report_keys(row)[0] not in replaced]
    graded_now = {(row[1], row[2], row[5], row[6]): row[0] for row in rows if row[9] == "placed"}
    for row in earlier:  # a file placed before, whose notebook a later attempt of this run replaces
        later = graded_now.get((row[1], row[2], row[5], row[6]))
        if row[9] == "placed" and later:
            row[9], row[10] = "earlier attempt", f"a later attempt, {later}, was graded"
    write_csv(path, [REPORT_COLUMNS, *earlier, *rows])


def _report_keys(row: list[str]) -> list[tuple[str, ...]]:
    """A row's own key first (a file's: platform, platform id and file; a missing notebook's: platform, platform id
    and assignment), then, for a file of an assignment, the key of that notebook missing, which the file replaces."""
    file, platform, platform_id, _, _, assignment = row[:6]
    missing = [(platform, platform_id, assignment, "missing")] if assignment else []
    return [(platform, platform_id, file)] + missing if file else missing


def _keep_identities(path: Path, platform: str, placed: list[Placement], columns: dict[str, str]) -> None:
    """Merge who each placed or missing student is, where each graded notebook's feedback goes, and the names
    of the assignments' columns, into ``path``."""
    kept = _kept(path)
    kept["columns"] = {**kept.get("columns", {}), **columns}
    path.parent.mkdir(parents=True, exist_ok=True)
    for p in placed:
        person = asdict(p.person) if p.person else {}
        earlier = kept["students"].get(p.student, {})  # what an earlier run's roster said, if this one has none
        kept["students"][p.student] = {**earlier, **person, "platform": platform, "platform_id": p.found.platform_id,
                                       "name": p.found.name or earlier.get("name", ""),
                                       "email": person.get("email") or p.found.email or earlier.get("email", "")}
        if p.found.path is None:
            continue  # missing: no file, no feedback
        kept["notebooks"]["\t".join(p.key)] = {
            "file": p.found.shown, "late": p.found.late, "order": list(p.found.order),
            "feedback": f"{p.found.feedback_prefix}{p.notebook}-feedback.html" if p.found.feedback_prefix else ""}
    write_json(path, kept)


def _named_as_handed_out(p: Placement) -> bool:
    """Whether the file is named as its notebook, after the prefix the platform gives it (of two files of one
    attempt, that one is graded: not a checkpoint or a copy beside it)."""
    return (p.found.original or p.found.path.name).lower() == f"{p.notebook}{NOTEBOOK_SUFFIX}".lower()


def _kept(path: Path) -> dict:
    """What earlier runs into the same ``OUT`` kept in ``placements.json`` (:func:`_keep_identities`)."""
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {"students": {}, "notebooks": {}}
