"""What goes back to students: feedback pages with no hidden test, points pending apart, refreshed after hand grading.

The fast tests check the two rules a page is made by (posenc_grader.feedback.hide, posenc_grader.marks.Mark). The
graded tests follow one rotation notebook (a wrong answer, and reordered cells, which leave a grader's note)
through an instructor's loop: ``make grade``; written answers graded by hand, with a comment, as the formgrader
writes them, and ``python -m posenc_grader.refresh``; ``make grade`` again. After each step the feedback page and
``grades.csv`` are read back. Last, nbgrader's own ``generate_feedback --force`` in the course, the refresh the
guide once advised, which wrote the hidden tests into every page.
"""

from __future__ import annotations

import csv
import subprocess
import sys
import tracemalloc
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest
from conftest import hidden_lines
from grading_kit import CLOCKWISE, COURSE, ROTATION, grade, grade_by_hand, read, solved, write

from posenc_grader import refresh
from posenc_grader.course import HIDDEN_TESTS, nbgrader_meta
from posenc_grader.feedback import HIDDEN_NOTE, hide
from posenc_grader.marks import Mark
from posenc_grader.records import HAND_BACK, INSTRUCTOR_ONLY, SAFE_FEEDBACK

(ASSIGNMENT, NOTEBOOK), STUDENT = ROTATION, "Ada Lovelace"
WRONG = "ch04_rotation"  # the answer replaced by a wrong one (clockwise), whose hidden tests then fail
COMMENT = "Clear proof; the last step deserves one more line."


def points(written: bool) -> dict[str, float]:
    """``{grade id: points}`` of the written answers (``written``) or of the autograded test cells."""
    found = {}
    for cell in read("source").cells:
        meta = nbgrader_meta(cell)
        if meta.get("grade") and bool(meta.get("solution")) == written:
            found[meta["grade_id"]] = float(meta["points"])
    return found


# ---- the rules, without grading -------------------------------------------------------------------------------------

def test_every_hidden_region_of_a_cell_is_cut_even_one_never_closed_and_the_visible_code_kept():
    source = f"a = 1\n{HIDDEN_TESTS[0]}\nassert secret_one\n{HIDDEN_TESTS[1]}\nb = 2\n{HIDDEN_TESTS[0]}\nsecret_two\n" \
             f"{HIDDEN_TESTS[1]}\nc = 3"
    cut = hide(source)
    assert "secret" not in cut and HIDDEN_TESTS[0] not in cut and HIDDEN_TESTS[1] not in cut
    assert cut.count(HIDDEN_NOTE) == 2
    assert cut.index("a = 1") < cut.index("b = 2") < cut.index("c = 3")
    assert hide(f"visible\n{HIDDEN_TESTS[0]}\nassert secret\n") == f"visible\n{HIDDEN_NOTE}"  # never closed


def grade_row(auto, manual, most):
    return SimpleNamespace(auto_score=auto, manual_score=manual, max_score=most,
                           score=manual if manual is not None else (auto or 0.0))


def test_a_mark_keeps_autograded_hand_graded_and_pending_points_apart():
    mark = Mark(statuses=["ok"])
    for auto, manual, most in [(3.0, None, 3.0), (1.0, None, 3.0), (None, None, 2.0), (None, 1.5, 2.0)]:
        mark.add(grade_row(auto, manual, most))
    assert (mark.auto, mark.auto_max, mark.hand, mark.hand_max, mark.pending) == (4, 6, 1.5, 2, 2)
    assert mark.summary == "4/6 autograded, 1.5/2 by hand, 2 by hand pending" and mark.cell == ""
    mark.add(grade_row(None, 2.0, 2.0))
    assert not mark.final  # the pending 2 points are still pending: another cell's grade changes nothing
    done = Mark(statuses=["ok"]) + Mark(statuses=["repaired"])
    for auto, manual, most in [(3.0, None, 3.0), (None, 2.0, 2.0)]:
        done.add(grade_row(auto, manual, most))
    assert (done.summary, done.cell, done.final) == ("5/5", "5", True)


def test_a_mark_of_a_row_in_review_is_never_final():
    mark = Mark(statuses=["ok", "tampered"])
    mark.add(grade_row(0.0, None, 3.0))
    assert not mark.final and mark.cell == "" and "tampered" in mark.summary


def test_a_pasted_figure_changed_is_a_new_file():
    """A resubmission whose written answer keeps its text and changes its figure is graded by hand again."""
    from posenc_grader.records import _sources

    figure = nbformat.v4.new_markdown_cell("![proof](attachment:proof.png)", attachments={"proof.png": {
        "image/png": "iVBORw0KGgo="}})
    other = nbformat.from_dict({**figure, "attachments": {"proof.png": {"image/png": "R0lGODlh"}}})
    assert _sources(nbformat.v4.new_notebook(cells=[figure])) != _sources(nbformat.v4.new_notebook(cells=[other]))


def test_a_figure_shown_thousands_of_times_is_shown_as_text_and_one_lost_is_no_error():
    """Rendered, one 100 kB attachment shown 1,500 times took 1.7 GB in the grader, a million empty headings 3.7 GB;
    an answer whose figure an editor lost, or holding a lone surrogate, made the row a grader error, with no copy
    kept to grade by hand; a line of spaces ended the kept copy's HTML block, and what followed was Markdown."""
    from posenc_grader.sanitize import Sanitize, markdown

    figure = {"a.png": {"image/png": "A" * 100_000}}
    tracemalloc.start()
    shown = markdown("proof\n\n" + "![](attachment:a.png)\n" * 1500, figure)
    link = markdown("[t][r]\n" * 1000 + "\n[r]: http://x/" + "a" * 50_000 + "\n")  # rendered, 50 MB
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 40 * 2**20 and all("shown as text" in text and "<img" not in text for text in (shown, link))
    assert "shown as text" in markdown("<b>x</b> " + "a " * 60_000)  # too long to render at all
    lost = markdown("![my sketch](attachment:fig.png) and text")
    assert lost == '<div>\n<p><img alt="my sketch"> and text</p>\n</div>'
    assert markdown("once: ![](attachment:a.png)", figure) == "once: ![](attachment:a.png)"
    pasted = "![](data:image/png;base64," + "A" * 150_000 + ")\n\n```\n" + "[0.1, 0.2]\n" * 2000 + "```\n<b>x</b>"
    assert "shown as text" not in markdown(pasted)  # an inline image, and a tensor (rendered, 8 times its size)
    hidden = markdown("data:image/a;base64,\n" + "+\n" * 60_000 + "<b>")  # no Markdown hides in an inline image,
    coded = markdown("<b>x</b>\n\n```\ndata:image/png;base64," + "a+" * 60_000 + "\n```")  # nor code in its shape
    assert "shown as text" in hidden and "shown as text" in coded
    cells = [nbformat.v4.new_markdown_cell("<b>x</b> " + "a " * 49_000) for _ in range(6)]  # each under the cap
    done, _ = Sanitize().preprocess(nbformat.v4.new_notebook(cells=cells), {})
    assert ["shown as text" in cell.source for cell in done.cells] == [False] * 4 + [True] * 2  # the notebook's too
    assert "shown as text" in markdown("![](attachment:f.png) <b>", {"f.png": {}})  # nbconvert cannot read it
    assert "\ud800" not in markdown("\ud800 <b>")  # nor nh3 this
    spaced = markdown("<b>x</b>\n\n```\na\n   \n\t\n\r\n\x0b\n\x0c\n```\n\n![](https://example.org/pixel.png)")
    assert not any(line.strip() == "" for line in spaced.split("\n")), spaced  # no line ends the HTML block


# ---- the loop, graded ------------------------------------------------------------------------------------------------

def submission() -> nbformat.NotebookNode:
    """Model answers except one wrong function, written answers answered, and a test cell moved above its answer."""
    nb = solved({WRONG: CLOCKWISE})
    ids = [nbgrader_meta(cell).get("grade_id") for cell in nb.cells]
    tests = nb.cells.pop(ids.index(f"{WRONG}_tests"))
    nb.cells.insert(ids.index(WRONG), tests)
    return nb


def snapshot(out: Path) -> dict:
    with open(out / "grades.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    page = out / HAND_BACK / "feedback" / STUDENT / ASSIGNMENT / f"{NOTEBOOK}.html"
    return {"row": rows[0], "rows": len(rows), "page": page.read_text(encoding="utf-8"),
            "pages": [p.read_text(encoding="utf-8") for p in sorted((out / HAND_BACK).rglob("*.html"))]}


@pytest.fixture(scope="module")
def loop(tmp_path_factory, prepared_course) -> dict[str, dict]:
    """The page and the grade sheet after ``graded``, ``refreshed`` (after grading by hand) and ``graded again``."""
    root = tmp_path_factory.mktemp("feedback")
    out, submissions = root / "out", root / "submissions"
    write(submissions / STUDENT / ASSIGNMENT / f"{NOTEBOOK}.ipynb", submission())
    grade(submissions, out, prepared_course)
    steps = {"graded": snapshot(out)}
    written = points(written=True)
    grade_by_hand(out, STUDENT, {cell: most - 1 for cell, most in written.items()}, COMMENT)
    assert refresh.main([str(out)]) == 0  # make feedback
    steps["refreshed"] = snapshot(out)
    grade(submissions, out, prepared_course)
    steps["graded again"] = snapshot(out)
    steps["out"] = {"path": out}
    own = subprocess.run([sys.executable, "-m", "nbgrader", "generate_feedback", ASSIGNMENT, "--force"],
                         cwd=out / INSTRUCTOR_ONLY, capture_output=True, text=True, timeout=300)
    assert own.returncode == 0, own.stderr
    steps["nbgrader's own"] = {"pages": [p.read_text(encoding="utf-8")
                                         for p in sorted((out / INSTRUCTOR_ONLY / "feedback").rglob("*.html"))]}
    autograded = nbformat.read(str(out / INSTRUCTOR_ONLY / "autograded" / STUDENT / ASSIGNMENT / f"{NOTEBOOK}.ipynb"),
                               as_version=4)
    steps["autograded"] = {"text": "\n".join(cell.source for cell in autograded.cells)}
    return steps


STEPS = ["graded", "refreshed", "graded again"]


@pytest.mark.grader
def test_nbgraders_own_generate_feedback_in_the_course_cuts_the_hidden_tests_too(loop):
    pages, lines = loop["nbgrader's own"]["pages"], hidden_lines(read("source"))
    assert len(pages) == 1 and "hidden tests: their code is not shown" in pages[0]
    assert HIDDEN_TESTS[0] not in pages[0] and [line for line in lines if line in pages[0]] == []


def test_the_courses_own_configuration_cuts_the_hidden_tests_as_the_graded_course_does():
    """Plain nbgrader in a copy of exercises/ (no grader run) gets what the test above checks in OUT."""
    from traitlets.config import Config

    safe = Config()
    exec(SAFE_FEEDBACK, {"c": safe})
    own = COURSE.config()
    for section in ("GenerateFeedback", "HTMLExporter"):
        assert own[section].preprocessors == safe[section].preprocessors


@pytest.mark.grader
@pytest.mark.parametrize("step", STEPS)
def test_no_page_holds_the_hidden_tests_only_their_failure(loop, step):
    lines = hidden_lines(read("source"))
    assert lines and all(line in loop["autograded"]["text"] for line in lines)  # the formgrader's copy keeps them
    for page in loop[step]["pages"]:
        assert HIDDEN_TESTS[0] not in page and HIDDEN_TESTS[1] not in page
        assert [line for line in lines if line in page] == []
    assert loop[step]["page"].count("hidden tests: their code is not shown") == len(
        [c for c in read("source").cells if HIDDEN_TESTS[0] in c.source])
    most = points(written=False)[f"{WRONG}_tests"]
    assert f"Score: 0.0 / {most:.1f}" in loop[step]["page"]  # the wrong answer's test cell failed, and says so


@pytest.mark.grader
def test_points_pending_by_hand_show_apart_until_graded(loop):
    auto, written = points(written=False), points(written=True)
    lost = auto[f"{WRONG}_tests"]
    summary = (f"{sum(auto.values()) - lost:g}/{sum(auto.values()):g} autograded, "
               f"{sum(written.values()):g} by hand pending")
    graded = loop["graded"]
    assert (graded["row"]["score"], graded["row"]["progress"]) == ("", summary)
    assert f"(Score: {summary})" in graded["page"]
    assert graded["page"].count("graded by hand") >= len(written) and "Written response</a> (Score: 0.0" \
        not in graded["page"]


@pytest.mark.grader
@pytest.mark.parametrize("step", ["refreshed", "graded again"])
def test_manual_scores_and_comments_reach_the_page_and_the_sheet(loop, step):
    auto, written = points(written=False), points(written=True)
    total = sum(auto.values()) - auto[f"{WRONG}_tests"] + sum(most - 1 for most in written.values())
    most = sum(auto.values()) + sum(written.values())
    row, page = loop[step]["row"], loop[step]["page"]
    assert (row["score"], row["max_score"], row["progress"]) == (f"{total:g}", f"{most:g}", "")
    assert f"(Score: {total:g}/{most:g})" in page and COMMENT in page
    for cell, points_of in written.items():
        assert f"Score: {points_of - 1:.1f} / {points_of:.1f}" in page, cell
    assert "pending" not in page and "await" not in row["message"]


@pytest.mark.grader
@pytest.mark.parametrize("step", STEPS)
def test_the_graders_notes_stay_on_the_page(loop, step):
    assert "Grading notes." in loop[step]["page"] and loop[step]["row"]["status"] == "repaired"
    assert "cells had been moved" in loop[step]["row"]["message"]
    assert loop[step]["rows"] == 1


@pytest.mark.grader
def test_what_goes_back_is_feedback_pages_alone_and_the_course_stays_apart(loop):
    out = loop["out"]["path"]
    assert {p.relative_to(out / HAND_BACK).parts[0] for p in (out / HAND_BACK).rglob("*.*")} == {"feedback"}
    assert {p.suffix for p in (out / HAND_BACK).rglob("*") if p.is_file()} == {".html"}
    private = out / INSTRUCTOR_ONLY
    assert (private / "gradebook.db").is_file() and (private / "source" / ASSIGNMENT / f"{NOTEBOOK}.ipynb").is_file()
    assert sorted(p.name for p in out.iterdir()) == sorted(["grades.csv", HAND_BACK, INSTRUCTOR_ONLY])
