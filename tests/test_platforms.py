"""Submissions in as Canvas, Moodle, Blackboard and Gradescope give them; grades and feedback out as they take them.

The downloads are built here from each platform's documented naming (see ``posenc_grader.platforms``), out of
the course's own notebooks: a perfect and a blank rotation notebook. The placement tests (names, attempts, late
flags, the roster, rejections, the empty download) read them without grading. The graded tests grade the same
class from today's layout and from each platform's download, and read the platforms' gradebooks and feedback
zips back with the rules the platforms' own import code applies (canvas-lms ``GradebookImporter`` and
``infer_comment_context_from_filename``, Moodle's ``assignfeedback_file_zip_importer``).
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

from posenc_grader import Limits, grade_class, samples, sandbox
from posenc_grader.__main__ import main
from posenc_grader.course import Course
from posenc_grader.platforms import NothingToPlace, detect, open_download
from posenc_grader.records import HAND_BACK, INSTRUCTOR_ONLY, PREPARED
from posenc_grader.roster import read_columns, read_roster
from posenc_grader.staging import IDENTITIES, REPORT, STAGED, stage, summary
from posenc_grader.submissions import Catalog

ROOT = Path(__file__).resolve().parent.parent
COURSE = Course.find(ROOT / "exercises")
CATALOG = Catalog(COURSE.root / "release")  # the committed student versions: what the prepared course holds
ASSIGNMENT, NOTEBOOK = "ch04_rotation", "rotation"
MB = 2**20


def notebook(kind: str) -> str:
    """The rotation notebook as a student hands it in: ``perfect`` (model answers) or ``blank``."""
    release = nbformat.read(str(COURSE.root / "release" / ASSIGNMENT / f"{NOTEBOOK}.ipynb"), as_version=4)
    source = nbformat.read(str(COURSE.source(ASSIGNMENT, NOTEBOOK)), as_version=4)
    return nbformat.writes(samples.filled(release, samples.solutions(source)) if kind == "perfect" else release)


def other_exercise() -> str:
    return (COURSE.root / "release" / "ch05_norm" / "norm.ipynb").read_text()


def lay_out(folder: Path, files: dict[str, str | bytes]) -> Path:
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return folder


def zipped(path: Path, files: dict[str, str | bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, content in files.items():
            archive.writestr(name, content)
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


def blackboard_receipt(name: str, username: str, assignment: str, date: str, files: list[str], prefix: str) -> str:
    listed = "".join(f"\tOriginal filename: {f}\n\tFilename: {prefix}_{f}\n" for f in files)
    return (f"Name: {name} ({username})\nAssignment: {assignment}\nDate Submitted: {date}\nCurrent Grade: "
            "Needs Grading\n\nSubmission Field:\nThere is no student submission text data for this assignment.\n\n"
            f"Comments:\nThere are no student comments for this assignment.\n\nFiles:\n{listed}\n")


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


def read_download(folder: Path, platform: str = "auto", max_bytes: int = 2 * MB):
    return open_download(folder, folder.parent / "scratch", platform, max_bytes)


def placed(tmp_path: Path, files: dict, roster: dict | None = None, max_bytes: int = 2 * MB):
    """Stage a download laid out from ``files``; return ``{file: placement}``."""
    download = read_download(lay_out(tmp_path / "download", files), max_bytes=max_bytes)
    return {p.found.shown: p for p in stage(download, CATALOG, roster or {}, tmp_path / "out", max_bytes)}


def report(tmp_path: Path) -> list[dict]:
    with open(tmp_path / "out" / REPORT, encoding="utf-8") as f:
        return list(csv.DictReader(f))


# --- reading each platform's names -------------------------------------------------------------------------

def test_canvas_names_give_user_file_late_and_the_upload_again(tmp_path):
    files = {canvas("Lovelace, Ada", 340934, 208490284, "rotation.ipynb"): "{}",
             canvas("Hopper, Grace", 5, 6, "rotation-1.ipynb", late=True): "{}",
             "anon_Xy3kZ_77_rotation.ipynb": "{}", "LATE_anon_Ab12c_78_rotation.ipynb": "{}"}
    found = {f.shown: f for f in read_download(lay_out(tmp_path / "download", files)).found}
    ada = found["lovelaceada_340934_208490284_rotation.ipynb"]
    assert (ada.platform_id, ada.name, ada.late, ada.order) == ("340934", "lovelaceada", False, (208490284,))
    grace = found["hoppergrace_LATE_5_6_rotation-1.ipynb"]
    assert (grace.platform_id, grace.late, grace.attempt) == ("5", True, "file 6 (upload 2)")
    assert grace.feedback_prefix == "hoppergrace_LATE_5_6_"
    assert canvas_reupload_ids(grace.feedback_prefix + "rotation-feedback.html") == ("5", "6")
    assert (found["anon_Xy3kZ_77_rotation.ipynb"].platform_id, found["anon_Xy3kZ_77_rotation.ipynb"].late) == (
        "anon_Xy3kZ", False)
    assert (found["LATE_anon_Ab12c_78_rotation.ipynb"].platform_id,
            found["LATE_anon_Ab12c_78_rotation.ipynb"].late) == ("anon_Ab12c", True)


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


def test_moodle_blind_marking_names_the_participant_only(tmp_path):
    (found,) = read_download(lay_out(tmp_path / "download", {f"{moodle('Participant', 77)}/x.ipynb": "{}"})).found
    assert (found.platform_id, found.name) == ("77", "Participant")


def test_blackboard_receipts_name_the_student_and_mark_late_attempts(tmp_path):
    first, second = blackboard("Week 4_RoPE", "a_lovelace", "2024-03-01-10-00-00"), blackboard(
        "Week 4_RoPE", "a_lovelace", "2024-03-09-23-30-05")
    files = {f"{first}_rotation.ipynb": "{}", f"{first}.txt": blackboard_receipt(
                 "Ada Lovelace", "a_lovelace", "Week 4 RoPE", "Friday, 1 March 2024 10:00:00 o'clock GMT",
                 ["rotation.ipynb"], first),
             f"{second}_rotation.ipynb": "{}", f"{second}.txt": blackboard_receipt(
                 "Ada Lovelace", "a_lovelace", "Week 4 RoPE", "Saturday, 9 March 2024 23:30:05 o'clock GMT (Late)",
                 ["rotation.ipynb"], second),
             f"{blackboard('Week 4_RoPE', 'ghopper', '2024-03-02-08-00-00')}_rotation.ipynb": "{}"}
    found = {f.shown: f for f in read_download(lay_out(tmp_path / "download", files)).found}
    assert len(found) == 3  # the receipts are read, not listed as files
    early, late = found[f"{first}_rotation.ipynb"], found[f"{second}_rotation.ipynb"]
    assert (early.platform_id, early.name, early.late) == ("a_lovelace", "Ada Lovelace", False)
    assert (late.platform_id, late.late, late.attempt) == ("a_lovelace", True, "2024-03-09 23:30:05")
    assert early.order < late.order
    no_receipt = found[f"{blackboard('Week 4_RoPE', 'ghopper', '2024-03-02-08-00-00')}_rotation.ipynb"]
    assert no_receipt.platform_id == "ghopper"


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


@pytest.mark.parametrize("platform,name", [
    ("canvas", canvas("Lovelace, Ada", 1, 2, "rotation.ipynb")),
    ("moodle", f"{moodle('Ada Lovelace', 1)}/rotation.ipynb"),
    ("blackboard", f"{blackboard('Week 4', 'ada', '2024-03-01-10-00-00')}_rotation.ipynb"),
    ("gradescope", "submission_metadata.yml"),
    (None, "ada/ch04_rotation/rotation.ipynb"),
])
def test_the_platform_is_told_from_the_names(tmp_path, platform, name):
    assert detect(lay_out(tmp_path, {name: "{}", "ada/other.txt": "x"})) == platform


# --- placing: by cells, latest attempt, late, roster, rejections ---------------------------------------------

def test_a_notebook_is_placed_by_its_cells_whatever_it_is_called(tmp_path):
    name = canvas("Lovelace, Ada", 7, 70, "final version (2).ipynb")
    placement = placed(tmp_path, {name: notebook("perfect")})[name]
    assert (placement.outcome, placement.student, placement.assignment, placement.notebook) == (
        "placed", "lovelaceada_7", ASSIGNMENT, NOTEBOOK)
    staged = tmp_path / "out" / STAGED / "lovelaceada_7" / ASSIGNMENT / f"{NOTEBOOK}.ipynb"
    assert staged.read_text() == notebook("perfect")


def test_the_latest_attempt_is_graded_and_the_earlier_ones_are_listed(tmp_path):
    old, new = canvas("Lovelace, Ada", 7, 70, "rotation.ipynb"), canvas("Lovelace, Ada", 7, 71, "rotation-1.ipynb")
    first, then = (blackboard("W4", "grace", when) for when in ("2024-03-09-23-30-05", "2024-03-10-08-00-00"))
    result = placed(tmp_path, {new: notebook("blank"), old: notebook("perfect")})
    assert (result[new].outcome, result[old].outcome) == ("placed", "earlier attempt")
    assert new in result[old].reason
    assert (tmp_path / "out" / STAGED / "lovelaceada_7" / ASSIGNMENT / "rotation.ipynb").read_text() == notebook(
        "blank")
    board = placed(tmp_path / "bb", {f"{then}_rotation.ipynb": notebook("perfect"),
                                     f"{first}_rotation.ipynb": notebook("blank")})
    assert board[f"{then}_rotation.ipynb"].outcome == "placed"
    assert board[f"{first}_rotation.ipynb"].outcome == "earlier attempt"


def test_the_late_flag_is_kept_as_a_column_of_the_report(tmp_path):
    placed(tmp_path, {canvas("Lovelace, Ada", 7, 70, "rotation.ipynb", late=True): notebook("perfect"),
                      canvas("Hopper, Grace", 8, 80, "rotation.ipynb"): notebook("blank")})
    assert {row["platform_id"]: row["late"] for row in report(tmp_path)} == {"7": "late", "8": ""}


def test_a_roster_from_canvas_or_moodle_exports_maps_platform_ids_to_the_gradebook(tmp_path):
    (tmp_path / "canvas.csv").write_text(
        "Student,ID,SIS User ID,SIS Login ID,Section\n    Points Possible,,,,\n"
        "\"Lovelace, Ada\",7,S007,ada,Tue\n")
    (tmp_path / "moodle.csv").write_text(
        "Identifier,Full name,Email address,Status\nParticipant 123456,Ada Lovelace,ada@example.edu,Submitted\n")
    canvas_roster, moodle_roster = read_roster(tmp_path / "canvas.csv"), read_roster(tmp_path / "moodle.csv")
    assert (canvas_roster["7"].student, canvas_roster["7"].sis_user_id) == ("Lovelace, Ada", "S007")
    assert (moodle_roster["123456"].student, moodle_roster["123456"].email) == ("Ada Lovelace", "ada@example.edu")
    ada, grace = canvas("Lovelace, Ada", 7, 70, "rotation.ipynb"), canvas("Hopper, Grace", 8, 80, "rotation.ipynb")
    result = placed(tmp_path / "run", {ada: notebook("perfect"), grace: notebook("blank")}, canvas_roster)
    assert result[ada].student == "Lovelace, Ada"
    assert (result[grace].student, result[grace].outcome) == ("hoppergrace_8", "placed")
    assert "not in the roster" in result[grace].reason


def test_a_student_of_the_roster_who_handed_nothing_in_is_staged_as_missing_and_named(tmp_path):
    (tmp_path / "roster.csv").write_text(f"Student,ID,SIS User ID,Section,Final Score,{ASSIGNMENT} (4242),"
                                         "ch05_norm (4343)\nAda,7\nGrace,8\nAlan,9\n")  # Canvas's gradebook export
    roster = read_roster(tmp_path / "roster.csv")
    assert read_columns(tmp_path / "roster.csv") == {ASSIGNMENT: f"{ASSIGNMENT} (4242)",
                                                     "ch05_norm": "ch05_norm (4343)"}
    files = {canvas("Lovelace, Ada", 7, 70, "rotation.ipynb"): notebook("perfect"),
             canvas("Turing, Alan", 9, 90, "answers.pdf"): b"%PDF-1.4"}
    placements = stage(read_download(lay_out(tmp_path / "download", files)), CATALOG, roster, tmp_path / "out", MB)
    assert {(p.student, p.assignment, p.outcome, p.reason) for p in placements if p.outcome == "missing"} == {
        ("Grace", ASSIGNMENT, "missing", "handed nothing in"),
        ("Alan", ASSIGNMENT, "missing", "none of their files was placed")}
    assert [row["platform_id"] for row in report(tmp_path) if row["outcome"] == "missing"] == ["8", "9"]
    assert sorted(p.name for p in (tmp_path / "out" / STAGED).iterdir()) == ["Ada", "Alan", "Grace"]
    assert not any((tmp_path / "out" / STAGED / "Grace" / ASSIGNMENT).iterdir())  # graded as missing
    assert summary("canvas", placements)[-1] == ("warning: 2 students of the roster handed in nothing that could be "
                                                 "graded, marked missing (0): Alan (9), Grace (8)")


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
             "rotation (1).ipynb": notebook("perfect"),
             canvas("Hopper, Grace", 8, 80, "huge.ipynb"): b" " * (MB + 1),
             canvas("Turing, Alan", 9, 90, "rotation.ipynb"): '{"cells": [',
             canvas("Noether, Emmy", 10, 100, "norm.ipynb"): other_exercise(),
             canvas("Curie, Marie", 11, 110, "rotation.ipynb"): notebook("blank")}
    result = placed(tmp_path, files, max_bytes=MB)
    rows = report(tmp_path)
    assert sorted(row["file"] for row in rows) == sorted(files)  # none dropped
    assert "not a notebook" in result[canvas("Lovelace, Ada", 7, 71, "answers.pdf")].reason
    assert "whose it is cannot be told" in result["rotation (1).ipynb"].reason
    assert "too large" in result[canvas("Hopper, Grace", 8, 80, "huge.ipynb")].reason
    broken = result[canvas("Turing, Alan", 9, 90, "rotation.ipynb")]
    assert (broken.outcome, broken.assignment) == ("placed", ASSIGNMENT)  # graded, scored 0, reason kept
    assert "scored 0" in broken.reason and "not a Jupyter notebook" in broken.reason
    other = result[canvas("Noether, Emmy", 10, 100, "norm.ipynb")]
    assert (other.outcome, other.assignment) == ("placed", "ch05_norm")  # its cells say which exercise it is
    assert {row["outcome"] for row in rows if row["file"] in (
        "rotation (1).ipynb", canvas("Lovelace, Ada", 7, 71, "answers.pdf"))} == {"rejected"}


def test_a_download_in_which_nothing_can_be_placed_is_an_error(tmp_path):
    with pytest.raises(NothingToPlace, match="nothing in this canvas download"):
        read_download(lay_out(tmp_path / "pdfs", {canvas("Lovelace, Ada", 7, 70, "answers.pdf"): b"%PDF"}))
    foreign = nbformat.writes(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(1)")]))
    download = read_download(lay_out(tmp_path / "foreign", {canvas("Lovelace, Ada", 7, 70, "x.ipynb"): foreign}))
    with pytest.raises(NothingToPlace, match="no cell of it belongs"):
        stage(download, CATALOG, {}, tmp_path / "out", 2 * MB)
    with pytest.raises(NothingToPlace, match="follow none"):
        read_download(zipped(tmp_path / "loose.zip", {"rotation.ipynb": notebook("perfect")}))


def test_a_zip_places_what_its_folder_places_and_leaves_unsafe_paths_out(tmp_path):
    files = {canvas("Lovelace, Ada", 7, 70, "rotation.ipynb"): notebook("perfect"),
             canvas("Hopper, Grace", 8, 80, "rotation.ipynb"): notebook("blank")}
    from_folder = read_download(lay_out(tmp_path / "folder" / "download", files))
    from_zip = open_download(zipped(tmp_path / "download.zip", {**files, "../escape.ipynb": notebook("perfect")}),
                             tmp_path / "scratch", "auto", 2 * MB)
    ours = [(f.shown, f.platform_id, f.order) for f in from_zip.found if not f.problem]
    assert ours == [(f.shown, f.platform_id, f.order) for f in from_folder.found]
    (unsafe,) = [f for f in from_zip.found if f.problem]
    assert unsafe.shown == "../escape.ipynb" and "unsafe" in unsafe.problem
    assert not (tmp_path / "escape.ipynb").exists()


@pytest.mark.parametrize("kind", ["loose notebooks", "empty zip", "zip of pdfs"])
def test_the_command_line_stops_with_a_message_when_nothing_can_be_graded(tmp_path, capsys, kind):
    if kind == "loose notebooks":  # what a new instructor first tried: Canvas's files, renamed, in one folder
        source = lay_out(tmp_path / "class", {"ada.ipynb": notebook("perfect"), "grace.ipynb": notebook("blank")})
    elif kind == "empty zip":
        source = zipped(tmp_path / "class.zip", {})
    else:
        source = zipped(tmp_path / "class.zip", {canvas("Lovelace, Ada", 7, 70, "answers.pdf"): b"%PDF"})
    assert main([str(source), "--out", str(tmp_path / "out")]) == 2
    assert "nothing" in capsys.readouterr().err
    assert not (tmp_path / "out" / "grades.csv").exists()


# --- grading the same class from every platform ----------------------------------------------------------------

STUDENTS = {"perfect": ("Lovelace, Ada", "Ada Lovelace", "ada", "1815", 101, 1001),
            "blank": ("Hopper, Grace", "Grace Hopper", "ghopper", "1906", 102, 1002)}
#           student: (sortable name, full name, username, SID, platform user id, file id)
IDS = {"canvas": 4, "moodle": 4, "blackboard": 2, "gradescope": 3}  # which field of STUDENTS each platform uses
ABSENT = {"absent": ("Noether, Emmy", "Emmy Noether", "emmy", "1882", 103, None)}  # on the roster, nothing handed in
#: The platform's own column of the assignment, in the roster (Canvas's gradebook export, Blackboard's Grade Center)
COLUMNS = {"canvas": f"{ASSIGNMENT} (4242)", "blackboard": f"{ASSIGNMENT} [Total Pts: 12 Score] |5151"}


def downloads(root: Path) -> dict[str, tuple[Path, Path | None]]:
    """The class of :data:`STUDENTS` as each platform's download, and a roster mapping it to the same names."""
    made = {"folders": (lay_out(root / "folders", {f"{s}/{ASSIGNMENT}/{NOTEBOOK}.ipynb": notebook(s)
                                                   for s in STUDENTS}), None)}
    (root / "folders" / "absent" / ASSIGNMENT).mkdir(parents=True)  # what a roster's absent student becomes
    people = STUDENTS.items()
    made["canvas"] = zipped(root / "canvas.zip", {canvas(sortable, uid, fid, "rotation.ipynb", late=s == "blank"):
                                                  notebook(s) for s, (sortable, _, _, _, uid, fid) in people})
    made["moodle"] = zipped(root / "moodle.zip", {f"{moodle(full, uid)}/rotation.ipynb": notebook(s)
                                                  for s, (_, full, _, _, uid, _) in people})
    board = {}
    for s, (_, full, user, _, _, _) in people:
        prefix = blackboard("Week 4", user, "2024-03-01-10-00-00")
        board[f"{prefix}_rotation.ipynb"] = notebook(s)
        board[f"{prefix}.txt"] = blackboard_receipt(full, user, "Week 4", "Friday, 1 March 2024", ["rotation.ipynb"],
                                                    prefix)
    made["blackboard"] = zipped(root / "blackboard.zip", board)
    metadata = gradescope_metadata({f"submission_{fid}": ("2024-03-01 10:00:00 +00:00", [(full, sid, f"{u}@x.edu")])
                                    for _, (_, full, u, sid, _, fid) in people})
    made["gradescope"] = zipped(root / "gradescope.zip", {"assignment_9_export/submission_metadata.yml": metadata, **{
        f"assignment_9_export/submission_{fid}/rotation.ipynb": notebook(s) for s, (*_, fid) in people}})
    for platform, index in IDS.items():
        roster = root / f"{platform}-roster.csv"
        column = f",{COLUMNS[platform]}" if platform in COLUMNS else ""
        roster.write_text(f"platform_id,student,email,id_number{column}\n" + "".join(
            f"{who[index]},{s},{who[2]}@x.edu,N{who[3]}{',' if column else ''}\n"
            for s, who in [*people, *ABSENT.items()]))
        made[platform] = (made[platform], roster)
    return made


@pytest.fixture(scope="module")
def graded(tmp_path_factory, prepared_course):
    """The same two students graded from today's layout and from each platform's download, one run each."""
    root = tmp_path_factory.mktemp("platforms")
    results = {}
    for layout, (source, roster) in downloads(root / "in").items():
        out = root / "out" / layout
        shutil.copytree(prepared_course, out / PREPARED)
        said = []
        grade_class(source, out, limits=Limits(cell_timeout=12, notebook_timeout=150), jobs=2, roster=roster,
                    progress=said.append, sandboxed=sandbox.problem() is None)
        with open(out / "grades.csv", encoding="utf-8") as f:
            results[layout] = (out, list(csv.DictReader(f)), said)
    return results


@pytest.mark.grader
@pytest.mark.parametrize("platform", ["canvas", "moodle", "blackboard", "gradescope"])
def test_a_platform_download_grades_to_the_same_scores_as_todays_layout(graded, platform):
    _, today, _ = graded["folders"]
    _, theirs, said = graded[platform]
    assert theirs == today
    assert {(row["student"], row["score"], row["progress"], row["status"]) for row in today} == {
        ("perfect", "", "6/6 autograded, 6 by hand pending", "ok"), ("blank", "0", "", "ok"),
        ("absent", "0", "", "missing")}
    (warning,) = [line for line in said if line.startswith("warning")]
    assert warning.endswith(f"marked missing (0): absent ({ABSENT['absent'][IDS[platform]]})")


def canvas_import(path: Path) -> dict[str, dict[str, str]]:
    """``{user id: {assignment: grade}}`` read as canvas-lms's GradebookImporter reads the header and rows."""
    with open(path, newline="", encoding="utf-8") as f:
        header, *rows = list(csv.reader(f))
    assert "Student" in header[0] and "ID" in header[1]
    assert header[2:5] == ["SIS User ID", "SIS Login ID", "Section"]  # five student columns, Section last
    return {row[1]: dict(zip(header[5:], row[5:], strict=True)) for row in rows if "Points Possible" not in row[0]}


def grade_written_answers_by_hand(out: Path, student: str, points: dict[str, float]) -> None:
    """What the formgrader does: a manual score on each written answer."""
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{out / INSTRUCTOR_ONLY / 'gradebook.db'}") as gb:
        for cell, score in points.items():
            gb.find_grade(cell, NOTEBOOK, ASSIGNMENT, student).manual_score = score
        gb.db.commit()


@pytest.mark.grader
def test_canvas_gradebook_waits_for_hand_grading_then_imports_the_scores(graded):
    from posenc_grader import refresh

    out, *_ = graded["canvas"]
    # the blank notebook left its written answers untouched, which nbgrader scores 0 itself: its 0 is final; the
    # column is the roster's, Canvas's own name of the assignment; the student who handed nothing in counts 0
    column = COLUMNS["canvas"]
    assert canvas_import(out / "canvas" / "gradebook.csv") == {"101": {column: ""}, "102": {column: "0"},
                                                               "103": {column: "0"}}
    with open(out / "canvas" / "gradebook.csv", encoding="utf-8") as f:
        assert next(row for row in csv.reader(f) if row[0] == "Points Possible")[5] == "12"
    grade_written_answers_by_hand(out, "perfect", {"ch04_offset_proof": 3, "ch04_orthogonal_forced": 2})
    assert refresh.main([str(out)]) == 0
    assert canvas_import(out / "canvas" / "gradebook.csv") == {"101": {column: "11"}, "102": {column: "0"},
                                                               "103": {column: "0"}}


@pytest.mark.grader
def test_canvas_feedback_zip_reaches_each_students_graded_file(graded):
    out, *_ = graded["canvas"]
    with zipfile.ZipFile(out / HAND_BACK / "canvas" / f"feedback-{ASSIGNMENT}.zip") as bundle:
        pages = {canvas_reupload_ids(name): bundle.read(name).decode() for name in bundle.namelist()}
    assert set(pages) == {("101", "1001"), ("102", "1002")}
    for student, (*_, uid, fid) in STUDENTS.items():
        assert pages[(str(uid), str(fid))] == (out / HAND_BACK / "feedback" / student / ASSIGNMENT
                                               / "rotation.html").read_text()
    with open(out / REPORT, encoding="utf-8") as f:
        assert {row["platform_id"]: (row["late"], row["outcome"], row["reason"]) for row in csv.DictReader(f)} == {
            "101": ("", "placed", ""), "102": ("late", "placed", ""), "103": ("", "missing", "handed nothing in")}


@pytest.mark.grader
def test_moodle_gradebook_and_feedback_zip_read_back_by_participant(graded):
    out, *_ = graded["moodle"]
    with open(out / "moodle" / "gradebook.csv", encoding="utf-8") as f:
        rows = {row["Email address"]: row for row in csv.DictReader(f)}
    assert set(rows) == {"ada@x.edu", "ghopper@x.edu", "emmy@x.edu"} and rows["ada@x.edu"]["ID number"] == "N1815"
    assert rows["ada@x.edu"][ASSIGNMENT] == ""  # written answers still to grade: no grade yet
    assert rows["ada@x.edu"][f"{ASSIGNMENT} feedback"] == "6/6 autograded, 6 by hand pending"
    assert (rows["ghopper@x.edu"][ASSIGNMENT], rows["ghopper@x.edu"][f"{ASSIGNMENT} feedback"]) == ("0", "0/12")
    assert (rows["emmy@x.edu"][ASSIGNMENT], rows["emmy@x.edu"][f"{ASSIGNMENT} feedback"]) == ("0", "0/12 (missing)")
    with zipfile.ZipFile(out / HAND_BACK / "moodle" / f"feedback-{ASSIGNMENT}.zip") as bundle:
        by_participant = {moodle_import_participant(name)[0]: bundle.read(name).decode() for name in bundle.namelist()}
    for student, (*_, uid, _) in STUDENTS.items():
        assert by_participant[str(uid)] == (out / HAND_BACK / "feedback" / student / ASSIGNMENT
                                            / "rotation.html").read_text()


@pytest.mark.grader
def test_blackboard_gradebook_quotes_every_field_and_names_usernames(graded):
    out, *_ = graded["blackboard"]
    text = (out / "blackboard" / "gradebook.csv").read_text(encoding="utf-8")
    assert text.splitlines()[0] == f'"Username","{COLUMNS["blackboard"]}"'  # the roster's, with its Column ID
    assert {row["Username"]: row[COLUMNS["blackboard"]] for row in csv.DictReader(io.StringIO(text))} == {
        "ada": "", "ghopper": "0", "emmy": "0"}
    kept = json.loads((out / IDENTITIES).read_text(encoding="utf-8"))
    assert {who["platform_id"] for who in kept["students"].values()} == {"ada", "ghopper", "emmy"}


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
