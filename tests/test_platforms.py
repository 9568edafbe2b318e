"""Submissions in as Canvas, Moodle, Blackboard and Gradescope give them; grades and feedback out as they take them.

The downloads are built here from each platform's documented naming (see ``posenc_grader.platforms``). The
placement tests read them without grading. The graded tests grade the sample class of the instructor guide
(``grader/sample/``) from the committed Canvas zip and from each other platform's download of the same class, and
read the gradebooks and feedback zips back by the rules of the platforms' own import code.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
import zipfile
from pathlib import Path

import nbformat
import pytest
from grading_kit import COURSE, ROOT, ROTATION, grade, grade_by_hand, read, write

from posenc_grader import refresh, samples
from posenc_grader.__main__ import main
from posenc_grader.gradebooks import WRITERS
from posenc_grader.marks import Mark
from posenc_grader.platforms import NothingToPlace, open_download
from posenc_grader.records import COURSE_USED, HAND_BACK, INSTRUCTOR_ONLY, STALE
from posenc_grader.roster import Person, read_columns, read_roster
from posenc_grader.staging import IDENTITIES, REPORT, stage, summary
from posenc_grader.submissions import Catalog, restore

CATALOG = Catalog(COURSE.root / "release")  # the committed student versions: what the prepared course holds
ASSIGNMENT, NOTEBOOK = ROTATION
MB = 2**20
SAMPLE = ROOT / "grader" / "sample"
#: The sample class, oldest upload first: (Canvas's sortable name, user id, file id, file name, answers, late).
#: Turing uploads twice, and the later upload is graded; Noether (104, on the roster) hands in nothing.
UPLOADS = [("Lovelace, Ada", 101, 1001, "rotation (final).ipynb", "perfect", False),
           ("Hopper, Grace", 102, 1002, "rotation.ipynb", "blank", True),
           ("Turing, Alan", 103, 1003, "rotation.ipynb", "blank", False),
           ("Turing, Alan", 103, 1004, "rotation-1.ipynb", "first answer", False)]
ABSENT = ("Noether, Emmy", 104)
BLACKBOARD_COLUMN = f"{ASSIGNMENT} [Total Pts: 12 Score] |5151"  # a roster's column of Blackboard's, with its id


def notebook(kind: str) -> str:
    """The rotation notebook as a student hands it in: ``perfect``, ``blank`` or with the ``first answer`` only."""
    models = samples.solutions(read("source"))
    answers = {"perfect": models, "blank": {}, "first answer": {"ch04_rotation": models["ch04_rotation"]}}[kind]
    return nbformat.writes(samples.filled(read("release"), answers))


def lay_out(folder: Path, files: dict[str, str | bytes]) -> Path:
    for name, content in files.items():
        write(folder / name, content)
    return folder


def zipped(path: Path, files: dict[str, str | bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, content in files.items():
            archive.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), content, zipfile.ZIP_DEFLATED)
    return path


# The platforms' naming, as their code writes it (references in posenc_grader.platforms).
def canvas(sortable_name: str, user: int | str, attachment: int, original: str, late: bool = False) -> str:
    """canvas-lms ContentZipper: sortable name in lower case, word characters only; LATE; user id; file id."""
    name = "".join(c for c in sortable_name.lower() if c.isalnum() or c == "_")
    return "_".join([name, *(["LATE"] if late else []), str(user), str(attachment), original])


def moodle(full_name: str, participant: int, trailing: bool = False) -> str:
    """mod/assign's download: one folder per student (a trailing ``_`` before Moodle 4.1)."""
    return f"{full_name.replace('_', ' ')}_{participant}_assignsubmission_file" + ("_" if trailing else "")


def blackboard(assignment: str, username: str, when: str) -> str:
    return f"{assignment}_{username}_attempt_{when}"


def blackboard_receipt(name: str, username: str, date: str) -> str:
    return (f"Name: {name} ({username})\nAssignment: Week 4 RoPE\nDate Submitted: {date}\nCurrent Grade: Needs "
            "Grading\n\nSubmission Field:\nThere is no student submission text data for this assignment.\n")


def gradescope_metadata(submissions: dict[str, tuple[str, list[tuple[str, str, str]]]]) -> str:
    """``submission_metadata.yml`` as Gradescope writes it: Ruby symbols as keys, a folder per submission."""
    text = ""
    for folder, (created, people) in submissions.items():
        text += f"{folder}:\n  :submitters:\n"
        for name, sid, email in people:
            text += f"  - :name: {name}\n" + (f"    :sid: '{sid}'\n" if sid else "") + f"    :email: {email}\n"
        text += f"  :created_at: {created}\n  :score: 0.0\n  :history: []\n"
    return text


def canvas_reupload_ids(name: str) -> tuple[str, str]:
    """What Canvas's re-upload reads from a name: its first two all-digit ``_`` fields (user, attachment)."""
    user, attachment, *_ = [part for part in name.split("_") if part.isdigit()]
    return user, attachment


def moodle_import_participant(path: str) -> tuple[str, str, str] | None:
    """What Moodle's feedback zip import reads: the first path part of 4+ ``_`` fields with a numeric second."""
    for part in path.split("/"):
        info = part.split("_", 4)
        if len(info) >= 4 and info[1].isdigit():
            return info[1], info[2], info[3]
    return None


def read_download(source: Path, max_bytes: int = 2 * MB):
    return open_download(source, source.parent / "scratch", "auto", max_bytes)


def placed(tmp_path: Path, files: dict, roster: dict | None = None, max_bytes: int = 2 * MB, run: str = "download"):
    """Stage a download laid out from ``files`` (in ``tmp_path / run``) into ``tmp_path / "out"``; return
    ``{file: placement}``."""
    download = read_download(lay_out(tmp_path / run, files), max_bytes=max_bytes)
    return {p.found.shown: p for p in stage(download, CATALOG, roster or {}, tmp_path / "out", max_bytes)}


def report(tmp_path: Path) -> list[dict]:
    with open(tmp_path / "out" / REPORT, encoding="utf-8") as f:
        return list(csv.DictReader(f))


# --- reading each platform's names -------------------------------------------------------------------------

def test_canvas_anonymous_names_give_the_anonymous_id_and_the_late_flag(tmp_path):
    """Names with user and file ids, LATE and a second upload are the sample's (graded below, in placements.csv)."""
    files = {"anon_Xy3kZ_77_rotation.ipynb": "{}", "LATE_anon_Ab12c_78_rotation-1.ipynb": "{}"}
    found = [(f.platform_id, f.late, f.attempt) for f in read_download(lay_out(tmp_path / "dl", files)).found]
    assert found == [("anon_Ab12c", True, "file 78 (upload 2)"), ("anon_Xy3kZ", False, "file 77")]


@pytest.mark.parametrize("layout", ["folders", "folders before 4.1", "flat"])
def test_moodle_names_give_the_participant_in_every_layout_of_its_download(tmp_path, layout):
    if layout == "flat":
        shown = f"{moodle('Ada Lovelace', 123456)}_my rotation.ipynb"
    else:
        shown = f"{moodle('Ada Lovelace', 123456, trailing=layout != 'folders')}/work/rotation.ipynb"
    download = read_download(lay_out(tmp_path / "download", {shown: "{}", "other/stray.ipynb": "{}"}))
    (found,) = [f for f in download.found if not f.problem]
    assert (found.platform_id, found.name) == ("123456", "Ada Lovelace")
    assert [f.shown for f in download.found if f.problem] == ["other/stray.ipynb"]
    feedback = found.feedback_prefix + "rotation-feedback.html"
    assert moodle_import_participant(feedback) == ("123456", "assignsubmission", "file")


def test_blackboard_receipts_name_the_student_and_mark_late_attempts(tmp_path):
    first, second, alone = (blackboard("Week 4_RoPE", user, f"2024-03-{when}") for user, when in (
        ("a_lovelace", "01-10-00-00"), ("a_lovelace", "09-23-30-05"), ("ghopper", "02-08-00-00")))
    files = {f"{first}_rotation.ipynb": "{}", f"{first}.txt": blackboard_receipt("Ada Lovelace", "a_lovelace", "Fri"),
             f"{second}_rotation.ipynb": "{}", f"{second}.txt": blackboard_receipt(
                 "Ada Lovelace", "a_lovelace", "Saturday, 9 March 2024 23:30:05 o'clock GMT (Late)"),
             f"{alone}_rotation.ipynb": "{}"}
    forged = f"{second}_x_ghopper_attempt_2030-01-01-00-00-00_rotation.ipynb"  # a file named as another's attempt
    files[forged] = "{}"
    found = {f.shown: f for f in read_download(lay_out(tmp_path / "download", files)).found}
    assert (found[forged].platform_id, found[forged].late) == ("a_lovelace", True)  # hers, late, as her receipt says
    del found[forged]
    assert len(found) == 3  # the receipts are read, not listed as files
    early, late = found[f"{first}_rotation.ipynb"], found[f"{second}_rotation.ipynb"]
    assert (early.platform_id, early.name, early.late) == ("a_lovelace", "Ada Lovelace", False)
    assert (late.platform_id, late.late, late.attempt) == ("a_lovelace", True, "2024-03-09 23:30:05")
    assert early.order < late.order
    assert found[f"{alone}_rotation.ipynb"].platform_id == "ghopper"  # no receipt: the name says whose


def test_gradescope_metadata_names_every_submitter_of_a_folder(tmp_path):
    metadata = gradescope_metadata({
        "submission_101": ("2024-03-01 10:00:00.000000000 -08:00", [("Ada Lovelace", "1815", "ada@example.edu")]),
        "submission_102": ("2024-03-02 11:00:00.000000000 -08:00", [("Grace Hopper", "", "grace@example.edu"),
                                                                    ("Alan Turing", "1912", "alan@example.edu")])})
    files = {"assignment_9_export/submission_metadata.yml": metadata,
             "assignment_9_export/submission_101/rotation.ipynb": "{}",
             "assignment_9_export/submission_102/work/rotation.ipynb": "{}",
             "assignment_9_export/submission_999/rotation.ipynb": "{}"}
    download = read_download(lay_out(tmp_path / "download", files))
    assert download.platform == "gradescope"
    by_id = {f.platform_id: f for f in download.found if f.platform_id}
    assert set(by_id) == {"1815", "grace@example.edu", "1912"}
    assert by_id["1912"].shown == by_id["grace@example.edu"].shown == "submission_102/work/rotation.ipynb"
    assert by_id["1815"].order < by_id["1912"].order
    (stray,) = [f for f in download.found if f.problem]
    assert stray.shown == "submission_999/rotation.ipynb" and "submission_metadata.yml" in stray.problem


# --- placing: rosters, rejections, the defences of unpacking ---------------------------------------------------

def test_a_roster_from_moodles_worksheet_maps_participants_and_one_not_in_it_keeps_the_platforms_name(tmp_path):
    (tmp_path / "moodle.csv").write_text(
        "Identifier,Full name,Email address,Status\nParticipant 7,Ada Lovelace,ada@example.edu,Submitted\n")
    roster = read_roster(tmp_path / "moodle.csv")
    assert (roster["7"].student, roster["7"].email) == ("Ada Lovelace", "ada@example.edu")
    ada, grace = f"{moodle('Lovelace Ada', 7)}/rotation.ipynb", f"{moodle('Grace Hopper', 8)}/rotation.ipynb"
    result = placed(tmp_path / "run", {ada: notebook("perfect"), grace: notebook("blank")}, roster)
    assert result[ada].student == "Ada Lovelace"
    assert (result[grace].student, result[grace].outcome) == ("Grace Hopper_8", "placed")
    assert "not in the roster" in result[grace].reason


def test_a_notebook_of_another_assignment_in_a_download_replaces_nothing(tmp_path):
    """Last week's notebook, finished late, handed in through this week's assignment (or a draft handed in to the
    wrong one, which every later download holds again) would replace the row its own download graded; where none
    was graded, it is graded as what it is (one upload for two chapters)."""
    ladder = (COURSE.root / "release" / "ch03_ladder" / "ladder.ipynb").read_text()
    week3 = placed(tmp_path, {canvas("Eve", 8, 60, "ladder.ipynb"): ladder}, run="week3")
    assert [p.outcome for p in week3.values()] == ["placed"]
    ada, eve, late = (canvas(name, uid, fid, file) for name, uid, fid, file in (
        ("Lovelace, Ada", 7, 70, "rotation.ipynb"), ("Eve", 8, 80, "rotation.ipynb"), ("Eve", 8, 81, "ladder.ipynb")))
    copies = {canvas("Eve", 8, 82 + n, f"ladder-{n}.ipynb"): ladder for n in range(3)}  # outvote the class, once
    both = canvas("Lovelace, Ada", 7, 71, "ladder.ipynb")  # nothing of hers graded in ch03: hers to hand in here
    alan = canvas("Turing, Alan", 9, 90, "rotation.ipynb")
    result = placed(tmp_path, {ada: notebook("perfect"), eve: notebook("blank"), alan: notebook("blank"), late: ladder,
                               **copies, both: ladder})
    assert (result[late].outcome, result[eve].outcome, result[ada].outcome, result[both].outcome) == (
        "rejected", "placed", "placed", "placed")
    assert result[late].reason == ("the notebook of ch03_ladder, handed in to ch04_rotation: it would replace "
                                   f"{canvas('Eve', 8, 60, 'ladder.ipynb')}, graded from ch03_ladder's own download")
    assert result[both].reason == "the notebook of ch03_ladder, handed in to ch04_rotation: graded as what it is"


@pytest.mark.parametrize("checkpoint_first", [True, False])
def test_of_two_notebooks_in_one_attempt_the_one_named_as_handed_out_is_graded(tmp_path, checkpoint_first):
    """A Blackboard attempt holding rotation.ipynb and a stale checkpoint beside it, whatever their order."""
    prefix = blackboard("Week 4", "u7", "2024-03-01-10-00-00")
    files = {f"{prefix}_{stale}.ipynb": notebook("blank") for stale in ("rotation-checkpoint", "old_rotation")}
    files[f"{prefix}_rotation.ipynb"] = notebook("perfect")
    result = placed(tmp_path, dict(reversed(files.items())) if checkpoint_first else files)
    assert {name: p.outcome for name, p in result.items()} == {name: "earlier attempt" for name in files} | {
        f"{prefix}_rotation.ipynb": "placed"}


def test_another_assignments_notebook_is_no_exercise_of_a_course_of_one_assignment(tmp_path):
    """A Gradescope autograder's course holds its own assignment only: a chapter 3 notebook, whose locked install
    cell is chapter 4's too, was graded as chapter 4's, "repaired". A notebook stripped of its ids is still read."""
    shutil.copytree(COURSE.root / "release" / ASSIGNMENT, tmp_path / ASSIGNMENT)
    catalog = Catalog(tmp_path)
    assert catalog.identify(nbformat.read(COURSE.root / "release" / "ch03_ladder" / "ladder.ipynb", 4)) is None
    stripped = nbformat.reads(notebook("perfect"), 4)
    for cell in stripped.cells:
        cell.metadata.pop("nbgrader", None)
    assert catalog.identify(stripped) == (ASSIGNMENT, NOTEBOOK)


def test_blackboards_grade_center_download_serves_as_a_roster_as_it_is(tmp_path):
    """Work Offline's default download: tab-separated UTF-16 in an .xls (a comma in a column's name)."""
    column = "Week 4, part A [Total Pts: 12 Score] |4461"
    (tmp_path / "gc.xls").write_bytes(f'"Last Name"\t"First Name"\t"Username"\t"{column}"\n'
                                      '"Lovelace"\t"Ada"\t"u7"\t""\n'.encode("utf-16"))
    assert read_roster(tmp_path / "gc.xls") == {"u7": Person("u7")}  # two students may share a name
    assert read_columns(tmp_path / "gc.xls") == {"Week 4, part A": column}
    (tmp_path / "latin.csv").write_bytes("platform_id,student\n7,Chlo\xe9\n".encode("latin-1"))
    with pytest.raises(ValueError, match="latin.csv: not text in UTF-8 or UTF-16"):
        read_roster(tmp_path / "latin.csv")


def test_two_platform_ids_are_never_graded_under_one_name(tmp_path):
    (tmp_path / "roster.csv").write_text("platform_id,student\n7,hoppergrace_8\n")  # Grace's name, given to Ada
    ada, grace = canvas("Lovelace, Ada", 7, 70, "rotation.ipynb"), canvas("Hopper, Grace", 8, 80, "rotation.ipynb")
    with pytest.raises(NothingToPlace):
        placed(tmp_path, {ada: notebook("perfect"), grace: notebook("blank")}, read_roster(tmp_path / "roster.csv"))
    rows = report(tmp_path)
    assert [row["outcome"] for row in rows] == ["rejected", "rejected"]
    assert all("7, 8 would all be graded as 'hoppergrace_8'" in row["reason"] for row in rows)


@pytest.mark.parametrize("text,problem", [
    ("student,email\nAda,ada@example.edu\n", "no column of platform ids"),
    ("platform_id,student\n7,Ada\n7,Grace\n", "appears twice"),
    ("platform_id,student\n7,Ada\n8,Ada\n", "two platform ids"),
])
def test_a_roster_that_cannot_map_safely_is_refused_with_its_reason(tmp_path, text, problem):
    (tmp_path / "roster.csv").write_text(text)
    with pytest.raises(ValueError, match=problem):
        read_roster(tmp_path / "roster.csv")


def test_every_file_that_cannot_be_placed_is_reported_with_its_reason(tmp_path):
    files = {canvas("Lovelace, Ada", 7, 70, "rotation.ipynb"): notebook("perfect"),
             canvas("Lovelace, Ada", 7, 71, "answers.pdf"): b"%PDF-1.4",
             canvas("Lovelace, Ada", 7, 72, "nested.zip"): zipped(tmp_path / "nested.zip", {
                 "rotation.ipynb": notebook("perfect")}).read_bytes(),
             "rotation (1).ipynb": notebook("perfect"),
             canvas("Hopper, Grace", 8, 80, "huge.ipynb"): b" " * (MB + 1),
             canvas("Turing, Alan", 9, 90, "rotation.ipynb"): '{"cells": [',
             canvas("Noether, Emmy", 10, 100, "norm.ipynb"): (COURSE.root / "release/ch05_norm/norm.ipynb").read_text(),
             canvas("Curie, Marie", 11, 110, "rotation.ipynb"): notebook("blank"),
             canvas("Franklin, Rosalind", 12, 120, "answers.pdf"): b"%PDF-1.4"}
    result = placed(tmp_path, files, {str(n): Person(str(n)) for n in range(7, 14)}, max_bytes=MB)
    rows = report(tmp_path)
    assert sorted(row["file"] for row in rows if row["file"]) == sorted(files)  # none dropped
    assert "not a notebook (.pdf)" in result[canvas("Lovelace, Ada", 7, 71, "answers.pdf")].reason
    assert "not a notebook (.zip)" in result[canvas("Lovelace, Ada", 7, 72, "nested.zip")].reason  # never unpacked
    assert "whose it is cannot be told" in result["rotation (1).ipynb"].reason
    assert "too large" in result[canvas("Hopper, Grace", 8, 80, "huge.ipynb")].reason
    broken = result[canvas("Turing, Alan", 9, 90, "rotation.ipynb")]
    assert (broken.outcome, broken.assignment) == ("placed", ASSIGNMENT)  # graded, scored 0, reason kept
    assert "scored 0" in broken.reason and "not a Jupyter notebook" in broken.reason
    other = result[canvas("Noether, Emmy", 10, 100, "norm.ipynb")]
    assert (other.outcome, other.assignment) == ("placed", "ch05_norm")  # its cells say which exercise it is
    # missing in the assignment the download is for (ch04: most of its files), Noether's ch05 notebook aside
    not_this = "no file of theirs is this assignment's notebook"
    assert {(row["platform_id"], row["assignment"], row["reason"]) for row in rows if row["outcome"] == "missing"} == {
        ("8", ASSIGNMENT, not_this), ("10", ASSIGNMENT, not_this), ("12", ASSIGNMENT, not_this),
        ("13", ASSIGNMENT, "handed nothing in")}


def test_a_later_download_without_the_roster_names_each_student_as_the_earlier_run_did(tmp_path):
    files = {canvas("Lovelace, Ada", 7, 70, "rotation.ipynb"): notebook("perfect")}
    roster = {"7": Person("7", "Ada Lovelace", sis_user_id="S7")}
    assert placed(tmp_path, files, roster)[next(iter(files))].student == "Ada Lovelace"
    late = {canvas("Lovelace, Ada", 7, 71, "rotation.ipynb", late=True): notebook("blank")}
    assert placed(tmp_path / "late", late)[next(iter(late))].student == "lovelaceada_7"  # another OUT: the platform's
    (tmp_path / "late" / "out").rename(tmp_path / "late" / "elsewhere")
    (tmp_path / "out").rename(tmp_path / "late" / "out")  # the same OUT as the first run
    assert placed(tmp_path / "late", late)[next(iter(late))].student == "Ada Lovelace"
    kept = (tmp_path / "late" / "out" / "instructor_only" / "placements.json").read_text()
    assert '"sis_user_id": "S7"' in kept  # what the roster said is kept for the gradebook


def test_a_platform_id_keeps_the_name_it_was_first_graded_under_in_an_out_whatever_a_roster_says_later(tmp_path):
    first, later = canvas("Lovelace, Ada", 7, 70, "rotation.ipynb"), canvas("Lovelace, Ada", 7, 71, "rotation.ipynb")
    result = placed(tmp_path, {first: notebook("blank")})  # no roster yet
    assert result[first].student == "lovelaceada_7"
    assert summary("canvas", list(result.values()))[0] == f"canvas download: 1 file, 1 placed (see {REPORT})"
    roster = {"7": Person("7", "Ada Lovelace"), "8": Person("8", "Grace Hopper")}
    result = placed(tmp_path, {later: notebook("perfect")}, roster, run="with the roster")
    assert (result[later].student, result[later].outcome) == ("lovelaceada_7", "placed")
    assert "the roster now calls them 'Ada Lovelace'" in result[later].reason
    assert {row["student"] for row in report(tmp_path) if row["outcome"] == "missing"} == {"Grace Hopper"}
    kept = json.loads((tmp_path / "out" / IDENTITIES).read_text())["students"]
    assert [student for student, who in kept.items() if who["platform_id"] == "7"] == ["lovelaceada_7"]
    assert kept["lovelaceada_7"]["student"] == "Ada Lovelace"  # the platform's gradebook shows the roster's name


def test_one_platform_id_under_two_names_in_one_download_is_one_student_named_as_its_latest_attempt(tmp_path):
    """Canvas names a file by the display name at its upload; the student changed theirs in between."""
    old, new = canvas("Lovelace, Ada", 7, 70, "rotation.ipynb"), canvas("King, Ada", 7, 71, "rotation-1.ipynb")
    result = placed(tmp_path, {old: notebook("blank"), new: notebook("perfect")})
    assert (result[old].student, result[new].student) == ("kingada_7", "kingada_7")
    assert (result[old].outcome, result[new].outcome) == ("earlier attempt", "placed")


def test_an_older_download_graded_again_never_replaces_the_later_attempt_graded_before(tmp_path):
    ada = {canvas("Lovelace, Ada", 7, 70, "rotation.ipynb"): notebook("perfect")}
    older, later = canvas("Turing, Alan", 9, 90, "rotation.ipynb"), canvas("Turing, Alan", 9, 91, "rotation-1.ipynb")
    placed(tmp_path, {**ada, later: notebook("first answer")})
    result = placed(tmp_path, {**ada, older: notebook("blank")}, run="last week's download")
    assert (result[older].outcome, result[older].reason) == (
        "earlier attempt", f"a later attempt, {later}, was graded in an earlier run")
    assert result[canvas("Lovelace, Ada", 7, 70, "rotation.ipynb")].outcome == "placed"  # the same attempt: again
    result = placed(tmp_path, {older: notebook("blank"), later: notebook("first answer")}, run="both")
    assert (result[older].reason, result[later].outcome) == (f"a later attempt, {later}, was graded", "placed")
    kept = json.loads((tmp_path / "out" / IDENTITIES).read_text())["notebooks"]
    assert kept["\t".join(["turingalan_9", *ROTATION])]["order"] == [91]


def test_a_roster_of_another_assignment_is_refused(tmp_path):
    """Moodle's participant ids are each assignment's own: last week's grading worksheet matches nobody."""
    (tmp_path / "worksheet.csv").write_text("Identifier,Full name\nParticipant 501,Ada Lovelace\n")
    files = {f"{moodle('Ada Lovelace', 601)}/rotation.ipynb": notebook("perfect")}
    with pytest.raises(ValueError, match="none of its 1 platform ids handed one in.*this assignment's roster"):
        placed(tmp_path, files, read_roster(tmp_path / "worksheet.csv"))
    assert not (tmp_path / "out").exists()


def test_placements_csv_keeps_the_rows_of_earlier_runs_and_one_row_per_file(tmp_path):
    ada, grace = canvas("Lovelace, Ada", 7, 70, "rotation.ipynb"), canvas("Hopper, Grace", 8, 80, "rotation.ipynb",
                                                                         late=True)
    placed(tmp_path, {grace: notebook("blank")}, {"7": Person("7", "Ada"), "8": Person("8", "Grace")})
    assert [(row["platform_id"], row["outcome"]) for row in report(tmp_path)] == [("8", "placed"), ("7", "missing")]
    placed(tmp_path, {ada: notebook("perfect")}, run="late work")  # her file replaces her row as missing
    assert [(row["file"], row["late"], row["outcome"]) for row in report(tmp_path)] == [
        (grace, "late", "placed"), (ada, "", "placed")]
    placed(tmp_path, {grace: notebook("blank")}, run="graded again")
    assert [(row["file"], row["late"]) for row in report(tmp_path)] == [(ada, ""), (grace, "late")]
    again = canvas("Hopper, Grace", 8, 81, "rotation-1.ipynb")  # a later attempt, in a download of its own
    placed(tmp_path, {again: notebook("perfect")}, run="resubmitted")
    assert [(row["file"], row["outcome"]) for row in report(tmp_path)] == [
        (ada, "placed"), (grace, "earlier attempt"), (again, "placed")]


def test_a_download_in_which_nothing_can_be_placed_is_an_error(tmp_path):
    with pytest.raises(NothingToPlace, match="nothing in this canvas download"):
        read_download(lay_out(tmp_path / "pdfs", {canvas("Lovelace, Ada", 7, 70, "answers.pdf"): b"%PDF"}))
    foreign = nbformat.writes(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(1)")]))
    download = read_download(lay_out(tmp_path / "foreign", {canvas("Lovelace, Ada", 7, 70, "x.ipynb"): foreign}))
    with pytest.raises(NothingToPlace, match="no cell of it belongs"):
        stage(download, CATALOG, {}, tmp_path / "out", 2 * MB)
    with pytest.raises(NothingToPlace, match="follow none"):
        read_download(zipped(tmp_path / "loose.zip", {"rotation.ipynb": notebook("perfect")}))


def test_a_zip_entry_with_an_unsafe_path_or_too_large_is_left_out_and_the_others_are_read(tmp_path):
    good = canvas("Lovelace, Ada", 7, 70, "rotation.ipynb")
    download = read_download(zipped(tmp_path / "download.zip", {
        "../escape.ipynb": notebook("perfect"), f"{tmp_path}/absolute.ipynb": "{}", good: notebook("perfect"),
        canvas("Hopper, Grace", 8, 80, "rotation.ipynb"): b" " * (2 * MB + 1)}))
    assert [(f.shown, f.platform_id) for f in download.found if not f.problem] == [(good, "7")]
    problems = {f.shown: f.problem for f in download.found if f.problem}
    unsafe = "unsafe path in the archive (not unpacked)"
    assert problems["../escape.ipynb"] == problems[f"{tmp_path}/absolute.ipynb"] == unsafe
    assert "too large" in problems["hoppergrace_8_80_rotation.ipynb"]
    assert not (tmp_path / "escape.ipynb").exists() and not (tmp_path / "absolute.ipynb").exists()


def test_zip_entries_of_one_name_or_of_a_file_and_a_folder_are_reported_and_the_others_read(tmp_path):
    good, twice, clash = (canvas(name, uid, fid, "rotation.ipynb") for name, uid, fid in (
        ("Lovelace, Ada", 7, 70), ("Hopper, Grace", 8, 80), ("Turing, Alan", 9, 90)))
    with zipfile.ZipFile(tmp_path / "download.zip", "w") as archive, pytest.warns(UserWarning, match="Duplicate"):
        for name, content in ((good, notebook("perfect")), (twice, notebook("blank")), (twice, notebook("perfect")),
                              (clash, "{}"), (f"{clash}/inside.ipynb", "{}")):
            archive.writestr(name, content)
    download = read_download(tmp_path / "download.zip")
    problems = {f.shown: f.problem for f in download.found if f.problem}
    assert problems == {twice: "a second entry of this name in the archive (not unpacked)",
                        f"{clash}/inside.ipynb": "cannot be unpacked (File exists)"}
    assert sorted(f.shown for f in download.found if not f.problem) == sorted([good, twice, clash])


def test_one_name_like_another_platforms_and_copies_of_another_exercises_text_decide_nothing(tmp_path):
    """A student's Canvas name that reads as a Moodle folder, and more files of theirs named as Blackboard's than
    the class has, leave the download Canvas's; a folder class with one student's folder named like Moodle's stays
    folders; a notebook of this exercise whose added cells copy another's locked
    text (no ids) is still this exercise's."""
    when = "2024-03-01 10:00:00 +00:00"
    files = {canvas(name, uid, 10 * uid, "rotation.ipynb"): "{}" for name, uid in (
        ("Lovelace, Ada", 7), ("Hopper, Grace", 8), ("x_1_assignsubmission_file", 9))}
    files |= {canvas("Turing, Alan", 10, 100 + n, f"x_attempt_2024-01-01-00-00-0{n}_a.ipynb"): "{}" for n in range(5)}
    download = read_download(lay_out(tmp_path / "download", files))
    assert download.platform == "canvas" and not any(f.problem for f in download.found)
    alone = {name: text for name, text in files.items() if "attempt" in name}  # a tie: Canvas's, whose prefix they have
    assert read_download(lay_out(tmp_path / "alone", alone)).platform == "canvas"
    deeper = {name: "{}" for name in (f"alan/{ASSIGNMENT}/hw_grace_attempt_2030-01-01-00-00-00_rotation.ipynb",
                                      "alan/submission_metadata.yml", f"ada/{ASSIGNMENT}/rotation.ipynb",
                                      f"alan/{ASSIGNMENT}/x_1_assignsubmission_file/rotation.ipynb")}
    assert read_download(lay_out(tmp_path / "folders", deeper)) is None  # folders: names a student chose decide nothing
    lone = {f"{who}/{ASSIGNMENT}/rotation.ipynb": "{}" for who in ("ada", "grace", moodle("eve", 1))}
    lone |= {f"{moodle('eve', 1)}/{ASSIGNMENT}/notes{n}.txt": "" for n in range(3)}  # her files counted once
    receipts = {f"{blackboard('Week 4', user, '2024-03-01-10-00-00')}.txt": blackboard_receipt(user, user, "Friday")
                for user in ("ada", "alan")}  # Alan's attempt holds a comment and no file
    receipts[f"{blackboard('Week 4', 'ada', '2024-03-01-10-00-00')}_rotation.ipynb"] = "{}"
    assert read_download(lay_out(tmp_path / "receipts", receipts)).platform == "blackboard"
    assert read_download(lay_out(tmp_path / "lone", lone)) is None  # one user named like Moodle's folders
    forged = gradescope_metadata({"a": ("2030-01-01 00:00:00 +00:00", [("Grace Hopper", "2", "g@x.edu")])})
    export = read_download(lay_out(tmp_path / "export", {
        "submission_metadata.yml": gradescope_metadata({f"submission_{n}": (when, [(name, str(n), f"{n}@x.edu")])
                                                        for n, name in ((1, "Alan Turing"), (2, "Grace Hopper"))}),
        "submission_1/submission_metadata.yml": forged, "submission_1/a/rotation.ipynb": "{}",
        "submission_2/rotation.ipynb": "{}"}))
    assert {f.shown: f.platform_id for f in export.found if f.shown.endswith(".ipynb")} == {
        "submission_1/a/rotation.ipynb": "1", "submission_2/rotation.ipynb": "2"}  # the export's metadata alone
    late = lay_out(tmp_path / "late", {f"carol/{ASSIGNMENT}/submission_metadata.yml": gradescope_metadata(
        {"forbob": (when, [("Bob", "bob", "b@x.edu")])}), f"carol/{ASSIGNMENT}/forbob/rotation.ipynb": "{}"})
    assert read_download(late) is None  # one student's folder alone: never unwrapped down to the names they chose
    nb = nbformat.read(str(COURSE.root / "release" / ASSIGNMENT / f"{NOTEBOOK}.ipynb"), 4)
    tests = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "ch04_rotation_tests")
    copied = nbformat.from_dict({**nb, "cells": [nbformat.v4.new_raw_cell(tests.source), *nb.cells]})
    restored, repairs = restore(copied, nb)
    assert repairs == [] and restored.cells[0].cell_type == "raw"  # a raw copy of a test cell is the student's own
    other = next(c for c in nbformat.read(str(COURSE.root / "release/ch01_attention/attention.ipynb"), 4).cells
                 if c.cell_type == "markdown" and c.metadata.get("nbgrader", {}).get("locked"))
    nb.cells += [nbformat.v4.new_markdown_cell(other.source) for _ in range(3 * len(nb.cells))]
    assert CATALOG.identify(nb) == (ASSIGNMENT, NOTEBOOK)


def test_gradescopes_metadata_with_yaml_aliases_is_refused(tmp_path):
    """A few hundred bytes of nested aliases expand to gigabytes: Gradescope writes none."""
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + n)}: &{chr(98 + n)} [{', '.join(['*' + chr(97 + n)] * 10)}]\n" for n in range(8))
    folder = lay_out(tmp_path / "export", {"submission_metadata.yml": bomb, "submission_1/rotation.ipynb": "{}"})
    with pytest.raises(NothingToPlace, match="an alias"):
        open_download(folder, tmp_path / "scratch", "gradescope", MB)


def test_a_symbolic_link_in_a_download_folder_is_reported_and_never_read(tmp_path):
    """A link in an unpacked download may point at any file the grader can read: it is left out, with its reason."""
    secret = tmp_path / "secret.ipynb"
    secret.write_text(notebook("perfect"))
    folder = lay_out(tmp_path / "download", {canvas("Lovelace, Ada", 7, 70, "rotation.ipynb"): notebook("blank")})
    link = canvas("Hopper, Grace", 8, 80, "rotation.ipynb")
    (folder / link).symlink_to(secret)
    found = {entry.shown: entry for entry in read_download(folder).found}
    assert "symbolic link" in found[link].problem and found[link].path is None
    assert found[canvas("Lovelace, Ada", 7, 70, "rotation.ipynb")].problem == ""


def test_an_out_graded_with_another_course_is_not_graded_with_the_default_one(tmp_path, capsys):
    """An instructor's own copy of the course, then one `make grade` without it: the default course, followed into
    OUT, took the class back to the old hidden tests and points."""
    source = lay_out(tmp_path / "class", {f"ada/{ASSIGNMENT}/rotation.ipynb": notebook("perfect")})
    used = write(tmp_path / "out" / COURSE_USED, f"named\t{tmp_path / 'my-course'}")
    assert main([str(source), "--out", str(tmp_path / "out")]) == 2  # named, and gone since (moved): still refused
    assert f"last graded with the course {tmp_path / 'my-course'}, not {COURSE.root}" in capsys.readouterr().err
    assert not (tmp_path / "out" / "grades.csv").exists()
    used.write_text(f"default\t{tmp_path / 'moved-checkout' / 'exercises'}")  # this checkout's, before a move
    assert main([str(lay_out(tmp_path / "empty", {"notes.txt": "x"})), "--out", str(tmp_path / "out")]) == 2
    assert "nothing to grade" in capsys.readouterr().err  # past the course check


def test_the_command_line_stops_with_a_message_when_nothing_can_be_graded(tmp_path, capsys):
    # what a new instructor first tried: Canvas's files, renamed, in one folder
    source = lay_out(tmp_path / "class", {"ada.ipynb": notebook("perfect"), "grace.ipynb": notebook("blank")})
    assert main([str(source), "--out", str(tmp_path / "out")]) == 2
    assert "nothing" in capsys.readouterr().err
    assert not (tmp_path / "out" / "grades.csv").exists()


# --- the sample class, graded from every platform ----------------------------------------------------------------

def sample_download() -> dict[str, str]:
    """The files of the sample Canvas download, as made from today's course."""
    return {canvas(name, uid, fid, file, late): notebook(kind) for name, uid, fid, file, kind, late in UPLOADS}


def test_the_sample_download_is_made_from_todays_course(tmp_path):
    with zipfile.ZipFile(SAMPLE / "canvas-download.zip") as archive:
        committed = {name: archive.read(name).decode() for name in archive.namelist()}
    assert committed == sample_download(), (
        f"grader/sample/canvas-download.zip is out of date: copy {zipped(tmp_path / 'sample.zip', sample_download())}")


def downloads(root: Path) -> dict[str, tuple[Path, Path]]:
    """The sample class as each platform's download, and a roster mapping it to the same students."""
    made = {"canvas": (SAMPLE / "canvas-download.zip", SAMPLE / "roster.csv")}
    latest = {name: upload for name, *upload in UPLOADS}  # Moodle keeps a student's latest submission only
    made["moodle"] = {f"{moodle(name, uid)}/{file}": notebook(kind) for name, (uid, _, file, kind, _) in latest.items()}
    made["blackboard"] = {}
    for name, uid, fid, file, kind, late in UPLOADS:
        prefix = blackboard("Week 4", f"u{uid}", f"2024-03-01-10-00-{fid % 100:02d}")
        made["blackboard"][f"{prefix}_{file}"] = notebook(kind)
        made["blackboard"][f"{prefix}.txt"] = blackboard_receipt(name, f"u{uid}", "Friday" + " (Late)" * late)
    metadata = gradescope_metadata({f"submission_{fid}": (f"2024-03-01 10:00:{fid % 100:02d} +00:00",
                                                          [(name, str(uid), f"u{uid}@x.edu")])
                                    for name, uid, fid, *_ in UPLOADS})
    made["gradescope"] = {"export/submission_metadata.yml": metadata, **{
        f"export/submission_{fid}/{file}": notebook(kind) for _, _, fid, file, kind, _ in UPLOADS}}
    for platform, prefix in (("moodle", ""), ("blackboard", "u"), ("gradescope", "")):
        roster = root / f"{platform}-roster.csv"
        column = f",{BLACKBOARD_COLUMN}" * (platform == "blackboard")  # Blackboard's own, with its Column ID
        roster.write_text(f"platform_id,student,email,id_number{column}\n" + "".join(
            f'{prefix}{uid},"{name}",u{uid}@x.edu,N{uid}{"," * bool(column)}\n'
            for name, uid in {*(u[:2] for u in UPLOADS), ABSENT}))
        made[platform] = (zipped(root / f"{platform}.zip", made[platform]), roster)
    return made


@pytest.fixture(scope="module")
def graded(tmp_path_factory, prepared_course):
    """The sample class graded from each platform's download, one run each."""
    root = tmp_path_factory.mktemp("platforms")
    results = {}
    for platform, (source, roster) in downloads(root).items():
        said = []
        grade(source, root / "out" / platform, prepared_course, roster=roster, progress=said.append)
        results[platform] = (root / "out" / platform, said)
    return results


@pytest.mark.grader
@pytest.mark.parametrize("platform", ["canvas", "moodle", "blackboard", "gradescope"])
def test_every_platforms_download_of_the_sample_class_grades_to_its_expected_output(graded, platform):
    out, said = graded[platform]
    assert (out / "grades.csv").read_text() == (SAMPLE / "expected" / "grades.csv").read_text()
    (warning,) = [line for line in said if line.startswith("warning")]
    assert warning.endswith(f"marked missing (0): Noether, Emmy ({'u' * (platform == 'blackboard')}104)")


@pytest.mark.grader
def test_the_sample_canvas_gradebook_waits_for_hand_grading_then_imports_the_scores(graded):
    out, _ = graded["canvas"]
    for name in ("placements.csv", "canvas/gradebook.csv"):
        assert (out / name).read_text() == (SAMPLE / "expected" / name).read_text(), name
    with open(out / "canvas" / "gradebook.csv", newline="", encoding="utf-8") as f:  # as GradebookImporter reads it
        header, possible, *rows = list(csv.reader(f))
    assert header[:5] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
    assert possible[0] == "Points Possible"
    assert {row[1]: row[5] for row in rows} == {"101": "", "102": "0", "103": "3", "104": "0"}
    grade_by_hand(out, "Lovelace, Ada", {"ch04_offset_proof": 3, "ch04_orthogonal_forced": 2})
    assert refresh.main([str(out)]) == 0  # make feedback
    with open(out / "canvas" / "gradebook.csv", newline="", encoding="utf-8") as f:
        assert {row[1]: row[5] for row in list(csv.reader(f))[2:]} == {"101": "11", "102": "0", "103": "3", "104": "0"}


@pytest.mark.grader
def test_the_canvas_feedback_zip_reaches_each_students_graded_file(graded):
    out, _ = graded["canvas"]
    with zipfile.ZipFile(out / HAND_BACK / "canvas" / f"feedback-{ASSIGNMENT}.zip") as bundle:
        pages = {canvas_reupload_ids(name): bundle.read(name).decode() for name in bundle.namelist()}
    assert set(pages) == {("101", "1001"), ("102", "1002"), ("103", "1004")}  # Turing's later upload
    for name, uid, fid, *_ in (u for u in UPLOADS if u[2] != 1003):
        assert pages[(str(uid), str(fid))] == (out / HAND_BACK / "feedback" / name / ASSIGNMENT
                                               / "rotation.html").read_text()


@pytest.mark.grader
def test_moodle_gradebook_and_feedback_zip_read_back_by_participant(graded):
    out, _ = graded["moodle"]
    with open(out / "moodle" / "gradebook.csv", encoding="utf-8") as f:
        rows = {row["Email address"]: row for row in csv.DictReader(f)}
    assert rows["u101@x.edu"]["ID number"] == "N101"
    assert {email: (row[ASSIGNMENT], row[f"{ASSIGNMENT} feedback"]) for email, row in rows.items()} == {
        "u101@x.edu": ("", "6/6 autograded, 6 by hand pending"), "u102@x.edu": ("0", "0/12"),
        "u103@x.edu": ("3", "3/12"), "u104@x.edu": ("0", "0/12 (missing)")}
    with zipfile.ZipFile(out / HAND_BACK / "moodle" / f"feedback-{ASSIGNMENT}.zip") as bundle:
        by_participant = {moodle_import_participant(name)[0]: bundle.read(name).decode() for name in bundle.namelist()}
    assert by_participant.keys() == {"101", "102", "103"}
    assert by_participant["101"] == (out / HAND_BACK / "feedback" / "Lovelace, Ada" / ASSIGNMENT
                                     / "rotation.html").read_text()


def test_a_moodle_row_moodle_could_not_match_is_left_out_and_named():
    """Moodle's import gives a row with neither ID number nor email to the student of the row above it."""
    students = {"Ada": {"email": "ada@x.edu"}, "Bob": {"name": "Bob"}, "Cy": {"id_number": "N3"}}
    rows, notes = WRITERS["moodle"](students, ["a"], {(s, "a"): Mark(auto=1, auto_max=1) for s in students})
    assert [row[0] for row in rows[1:]] == ["Ada", "Cy"]
    assert notes == ["moodle: left out of gradebook.csv, with neither an ID number nor an email, by which Moodle's "
                     "grade import finds a student: Bob (give a roster that has them, --roster)"]


@pytest.mark.grader
def test_blackboard_gradebook_quotes_every_field_and_names_usernames(graded):
    out, _ = graded["blackboard"]
    text = (out / "blackboard" / "gradebook.csv").read_text(encoding="utf-8")
    assert text.splitlines()[0] == f'"Username","{BLACKBOARD_COLUMN}"'  # the roster's, with its Column ID
    assert {row["Username"]: row[BLACKBOARD_COLUMN] for row in csv.DictReader(io.StringIO(text))} == {
        "u101": "", "u102": "0", "u103": "3", "u104": "0"}


@pytest.mark.grader
def test_late_work_graded_into_the_same_out_changes_no_other_students_row(graded, prepared_course, tmp_path):
    """The guide's late download: Noether hands in after the others were graded (and Lovelace graded by hand)."""
    out = tmp_path / "out"
    shutil.copytree(graded["canvas"][0], out)
    before = {row["student"]: row for row in csv.DictReader(io.StringIO((out / "grades.csv").read_text()))}
    kept = {p.relative_to(out): p.read_bytes() for p in (out / INSTRUCTOR_ONLY).glob("*/*/*/*.ipynb")}  # graded
    late = zipped(tmp_path / "late.zip", {canvas("Noether, Emmy", 104, 3001, "rotation.ipynb", True): notebook(
        "first answer")})
    said = []
    grade(late, out, prepared_course, roster=SAMPLE / "roster.csv", progress=said.append)
    after = {row["student"]: row for row in csv.DictReader(io.StringIO((out / "grades.csv").read_text()))}
    assert {k: v for k, v in after.items() if k != "Noether, Emmy"} == {k: v for k, v in before.items()
                                                                          if k != "Noether, Emmy"}
    assert (after["Noether, Emmy"]["score"], after["Noether, Emmy"]["status"]) == ("3", "ok")
    assert all((out / path).read_bytes() == data for path, data in kept.items() if "Noether" not in str(path))
    assert not any(line.startswith("warning") for line in said)
    with open(out / "canvas" / "gradebook.csv", newline="", encoding="utf-8") as f:
        rows = {row[1]: row[5] for row in list(csv.reader(f))[2:]}
    assert rows["104"] == "3" and rows["103"] == "3"


@pytest.mark.grader
def test_a_resubmission_waits_for_hand_grading_again_and_the_same_file_keeps_its_manual_scores(graded, prepared_course,
                                                                                               tmp_path):
    """Turing, graded by hand (2 of 3 on a test cell, 1 on each written answer), hands in a complete notebook; the
    next download holds it and Lovelace's file graded before, whose manual scores stay. Hopper's file, graded by
    hand, is followed by one that cannot be read: her manual scores go with the file they were given to."""
    out = tmp_path / "out"
    shutil.copytree(graded["canvas"][0], out)
    grade_by_hand(out, "Lovelace, Ada", {"ch04_offset_proof": 3, "ch04_orthogonal_forced": 2})
    grade_by_hand(out, "Turing, Alan", {"ch04_offset_proof": 1, "ch04_orthogonal_forced": 1,
                                        "ch04_rope_score_tests": 2}, comment="about the earlier file")
    grade_by_hand(out, "Hopper, Grace", {"ch04_offset_proof": 3, "ch04_orthogonal_forced": 2})
    kept = out / INSTRUCTOR_ONLY / "submitted" / "Lovelace, Ada" / ASSIGNMENT / f"{NOTEBOOK}.ipynb"
    older = nbformat.read(kept, 4)  # Lovelace's copy as an older grader's sanitizer kept it: the file is the same
    next(c for c in older.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "ch04_offset_proof").source += " "
    nbformat.write(older, kept)
    again = zipped(tmp_path / "again.zip", {canvas("Lovelace, Ada", 101, 1001, "rotation (final).ipynb"): notebook(
        "perfect"), canvas("Turing, Alan", 103, 1005, "rotation-2.ipynb"): notebook("perfect"),
        canvas("Hopper, Grace", 102, 1006, "rotation-1.ipynb", True): "not a notebook {"})
    grade(again, out, prepared_course, roster=SAMPLE / "roster.csv")
    rows = {row["student"]: row for row in csv.DictReader(io.StringIO((out / "grades.csv").read_text()))}
    assert (rows["Lovelace, Ada"]["score"], rows["Lovelace, Ada"]["message"]) == ("11", "graded")
    turing = rows["Turing, Alan"]
    assert (turing["score"], turing["progress"]) == ("", "6/6 autograded, 6 by hand pending")
    assert "manual scores and comments given to the earlier one were cleared" in turing["message"]
    hopper = rows["Hopper, Grace"]
    assert (hopper["score"], hopper["status"]) == ("0", "unreadable") and "were cleared" in hopper["message"]
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{out / INSTRUCTOR_ONLY / 'gradebook.db'}") as gb:  # as the formgrader lists them
        ada, alan = (gb.find_submission_notebook(NOTEBOOK, ASSIGNMENT, who)
                     for who in ("Lovelace, Ada", "Turing, Alan"))
        assert not any(g.needs_manual_grade for g in ada.grades)  # graded by hand, and the same file
        assert {g.name for g in alan.grades if g.needs_manual_grade} == {"ch04_offset_proof", "ch04_orthogonal_forced"}
        assert not any(c.manual_comment for c in alan.comments)


@pytest.mark.grader
def test_an_assignment_changed_after_grading_is_followed_and_its_rows_say_until_graded_again(graded, prepared_course,
                                                                                            tmp_path):
    """A test's points lowered (3 to 2) and a question's text changed after the sample was graded, Lovelace graded by
    hand and Turing's test cell overridden by hand: Lovelace's same file, graded again, keeps her hand scores and is
    no edit of hers; Hopper's new file, a cell deleted, is repaired; Turing's row, not in the download, waits until
    the class's own files are graded again (a folder among them named like Moodle's), where Hopper's repairs are said
    again and Turing is told that his manual score stands; a question added stops with what to do, changing nothing."""
    out, course = tmp_path / "out", tmp_path / "course"
    shutil.copytree(graded["canvas"][0], out)
    course.mkdir()
    shutil.copy(COURSE.config_file, course / "nbgrader_config.py")
    shutil.copytree(COURSE.root / "source" / ASSIGNMENT, course / "source" / ASSIGNMENT)
    source = course / "source" / ASSIGNMENT / f"{NOTEBOOK}.ipynb"
    nb = read("source")
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == "ch04_rotation_tests":
            cell.metadata.nbgrader.points = 2
    nb.cells[[c.source.startswith("## 1.") for c in nb.cells].index(True)].source += "\n\nAn added sentence."
    write(source, nb)
    grade_by_hand(out, "Lovelace, Ada", {"ch04_offset_proof": 3, "ch04_orthogonal_forced": 2})
    grade_by_hand(out, "Turing, Alan", {"ch04_offset_proof": 0, "ch04_orthogonal_forced": 0, "ch04_rotation_tests": 1})
    blank = nbformat.reads(notebook("blank"), 4)
    del blank.cells[1]
    proof = next(c for c in blank.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "ch04_offset_proof")
    proof.source = "<pre><r>" + "\n" * 12 + "</>"  # made inert, made inert again: never the same (a hostile pass)
    heading = next(c for c in blank.cells if c.cell_type == "markdown" and c.metadata.get("nbgrader", {}).get("locked"))
    blank.cells.append(nbformat.v4.new_markdown_cell(heading.source))  # a repair found again in the kept copy
    said = []
    again = zipped(tmp_path / "again.zip", {
        canvas("Lovelace, Ada", 101, 1001, "rotation (final).ipynb"): notebook("perfect"),
        canvas("Hopper, Grace", 102, 1006, "rotation.ipynb"): nbformat.writes(blank)})
    grade(again, out, prepared_course, course=course, roster=SAMPLE / "roster.csv", progress=said.append)
    rows = {row["student"]: row for row in csv.DictReader(io.StringIO((out / "grades.csv").read_text()))}
    assert (rows["Lovelace, Ada"]["score"], rows["Lovelace, Ada"]["max_score"]) == ("10", "11")
    assert (rows["Lovelace, Ada"]["status"], rows["Lovelace, Ada"]["message"]) == ("ok", "graded")
    assert rows["Hopper, Grace"]["status"] == "repaired"
    grade_by_hand(out, "Hopper, Grace", {"ch04_offset_proof": 2, "ch04_orthogonal_forced": 1})
    assert "graded before the assignment changed" in rows["Turing, Alan"]["message"]
    assert "graded before" not in rows["Noether, Emmy"]["message"]  # missing: no graded file, 0 either way
    assert any("graded before their assignment changed, not since (1: Turing, Alan/" in line for line in said)
    assert any(line.startswith("warning: notebooks graded before") for line in refresh.refresh(out))  # make feedback
    with open(out / "canvas" / "gradebook.csv", newline="", encoding="utf-8") as f:  # an old score waits, not shown
        assert {row[1]: row[5] for row in list(csv.reader(f))[2:]} == {"101": "10", "102": "3", "103": "", "104": "0"}
    lookalike = out / INSTRUCTOR_ONLY / "submitted" / "x_1_assignsubmission_file_105"  # a name like Moodle's folders
    shutil.copytree(out / INSTRUCTOR_ONLY / "submitted" / "Lovelace, Ada", lookalike)
    forger = write(out / INSTRUCTOR_ONLY / "submitted" / "Forger" / ASSIGNMENT / f"x{STALE}.ipynb", notebook("blank"))
    said = []
    grade(out / INSTRUCTOR_ONLY / "submitted", out, prepared_course, course=course, progress=said.append)
    rows = {row["student"]: row for row in csv.DictReader(io.StringIO((out / "grades.csv").read_text()))}
    assert (rows["Turing, Alan"]["score"], rows["Turing, Alan"]["max_score"]) == ("1", "11")
    assert rows["Turing, Alan"]["message"] == "graded"  # the student's page says nothing of the override; you are told:
    assert any("manual scores stand over automatic ones that changed since (1: Turing, Alan/ch04_rotation_tests)" in
               line for line in said)
    assert (rows["Hopper, Grace"]["status"], rows["Hopper, Grace"]["score"], rows["Lovelace, Ada"]["score"]) == (
        "repaired", "3", "10")  # Hopper's hand grades kept: the same file
    assert "was missing (restored)" in rows["Hopper, Grace"]["message"]  # repaired when first graded, said again
    assert rows["x_1_assignsubmission_file_105"]["status"] == "ok"
    assert STALE in rows["Forger"]["message"] and rows["Forger"]["score"] == "0"  # a name forges no wait
    forger.unlink()
    kept = out / INSTRUCTOR_ONLY / "submitted" / "Forger" / ASSIGNMENT / f"{NOTEBOOK}.ipynb"
    kept.write_text('{"cells": [')  # a kept copy that cannot be graded now (its assignment gone, say): kept as it is
    said = []
    grade(out / INSTRUCTOR_ONLY / "submitted", out, prepared_course, course=course, progress=said.append)
    again_rows = {row["student"]: row for row in csv.DictReader(io.StringIO((out / "grades.csv").read_text()))}
    assert again_rows["Forger"] == rows["Forger"] and kept.read_text() == '{"cells": ['
    assert any("not graded, as it was before: Forger/" in line for line in said)
    assert any("manual scores stand over automatic ones" in line for line in said)  # said until cleared
    shutil.rmtree(kept.parent.parent)
    nb.cells.append(nbformat.v4.new_markdown_cell("A new question", metadata={"nbgrader": {
        "grade_id": "ch04_added", "locked": True, "grade": False, "solution": False, "schema_version": 3}}))
    write(source, nb)
    before = [(out / name).read_bytes() for name in (f"{INSTRUCTOR_ONLY}/source/{ASSIGNMENT}/{NOTEBOOK}.ipynb",
                                                     "grades.csv", f"{INSTRUCTOR_ONLY}/gradebook.db")]
    said = []
    with pytest.raises(NothingToPlace, match="ch04_rotation has changed in a way this OUT cannot follow"):
        grade(again, out, prepared_course, course=course, roster=SAMPLE / "roster.csv", progress=said.append)
    assert any("Cannot add or remove cells" in line and "grade them into a new OUT" in line for line in said)
    assert [(out / name).read_bytes() for name in (f"{INSTRUCTOR_ONLY}/source/{ASSIGNMENT}/{NOTEBOOK}.ipynb",
                                                   "grades.csv", f"{INSTRUCTOR_ONLY}/gradebook.db")] == before
    nb.cells.pop()
    write(source, nb)
    write(course / "source" / ASSIGNMENT / "extra.ipynb", read("source"))  # a notebook added
    said = []
    grade(out / INSTRUCTOR_ONLY / "submitted", out, prepared_course, course=course, progress=said.append)  # folders
    assert any("Cannot modify existing assignment" in line for line in said)
    assert any(line.startswith("warning: not graded, as it was before: Lovelace, Ada/") for line in said)
    assert (out / INSTRUCTOR_ONLY / "gradebook.db").read_bytes() == before[2]
