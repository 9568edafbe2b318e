"""A hostile submission's markup stays inert where people look at it: the formgrader and the hand-back pages.

Two students of chapter 4 are graded with ``make grade``'s pipeline: one hands in the model answers, the other
writes a corpus of hostile markup into the written answers, into cells of its own (Markdown, raw HTML, code that
displays HTML, JavaScript and SVG) and into the notebook's widget state. Each student's autograded notebook is
rendered as nbgrader's formgrader renders a submission (nbconvert's HTML exporter, nbgrader's ``formgrade``
template, here with no configuration of the course's, so that the file itself is what is tested), each
feedback page under ``hand_back/`` is opened as it is, and so is the formgrader's page of each student, which
puts the student's id into its HTML and its JavaScript unescaped (the hostile student's name is hostile too). In
chromium, every request is recorded (none reaches a server: the formgrader's own API, to set grades, included),
and so is every dialog and every time a payload
runs (each sets ``window.__pwned``, whose setter reports to the test, from any frame, even after a
navigation): the hostile pages must run no script, make no request the model answers' pages do not make,
keep no live markup, and hide no text; the gradebook must be as grading left it. The formgrader's server is
not started: a script that ran would show up as a flag, a dialog or a request (its API is reached only by
requests).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
import pytest
from grading_kit import ROTATION, grade, read, solved, write

from posenc_grader import samples
from posenc_grader.records import HAND_BACK, INSTRUCTOR_ONLY, ClassRecord

from .harness import CHROMIUM, SiteServer, launch

ASSIGNMENT, NOTEBOOK = ROTATION
RUN = "window.__pwned=(window.__pwned||0)+1"
GOOD, BAD = "Ben Benign", f'Mallory"; {RUN}; "<img src=x onerror="{RUN}">'  # her name is hostile too
HIDDEN_TEXT = "THIS-TEXT-MUST-STAY-VISIBLE"
EVIL = "https://evil.example"
CORPUS = [
    f"<script>{RUN}</script>",
    f'<img src=x onerror="{RUN}">',
    f'<svg onload="{RUN}"><circle r="5"></circle></svg>',
    f'<details open ontoggle="{RUN}">details</details>',
    f"[a link](javascript:{RUN})",
    f'<iframe src="data:text/html,<script>{RUN}</script>"></iframe>',
    f'<meta http-equiv="refresh" content="0;url={EVIL}/refresh">',
    f"<style>body {{ background: url({EVIL}/css) }}</style>",
    f'<svg><script>{RUN}</script></svg>',
    f'<math><maction actiontype="statusline" xlink:href="javascript:{RUN}">math</maction></math>',
    f'<form action="{EVIL}/form"><input name="q" value="1"><button>go</button></form>',
    f'<span style="display:none">{HIDDEN_TEXT}</span>',
    f'<object data="data:text/html,<script>{RUN}</script>"></object>',
    f'<link rel="stylesheet" href="{EVIL}/link.css"><base href="{EVIL}/">',
    f"![tracker]({EVIL}/pixel.png)",
]
MATH = "So $m<n$ gives $R_m^T R_n = R_{n-m}$, and **that** is all."  # must stay Markdown, as it is
DISPLAYED = ("from IPython.display import HTML, SVG, Javascript, display\n"
             f"display(HTML('<img src=x onerror=\"{RUN}\">'))\ndisplay(Javascript('{RUN}'))\n"
             f"display(SVG('<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"{RUN}\"></svg>'))")
LIVE = """() => [...document.querySelectorAll('*')].flatMap((el) => [
  ...[...el.attributes].filter((a) => /^on/i.test(a.name)
     || (/^(href|src|action|formaction|data|xlink:href)$/i.test(a.name)
         && /^\\s*(javascript|data:(?!image\\/))/i.test(a.value))).map((a) => `${el.tagName} ${a.name}`),
  ...(/^(SCRIPT|IFRAME|OBJECT|EMBED|FORM|META|BASE|LINK|STYLE)$/.test(el.tagName) && el.closest('.cell, .jp-Cell')
      ? [el.tagName] : [])])"""


def hostile(release: nbformat.NotebookNode, written: list[str]) -> nbformat.NotebookNode:
    """The student version with the corpus in its written answers, cells of its own and its widget state."""
    nb = samples.filled(release, {cell: "\n\n".join([MATH, *CORPUS]) for cell in written})
    nb.cells += [nbformat.v4.new_markdown_cell(item) for item in CORPUS]
    nb.cells += [nbformat.v4.new_raw_cell(f'<img src=x onerror="{RUN}">'), nbformat.v4.new_code_cell(DISPLAYED)]
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}, "version_major": 2,
                                                                            "version_minor": 0}}
    return nb


def students_page(student: str) -> str:
    """The formgrader's page of one student (*Manage Students*, then the student), as its server renders it: with
    its templates in a Jinja environment of its own, which escapes nothing."""
    from jinja2 import Environment, FileSystemLoader
    from nbgrader.server_extensions.formgrader import handlers

    environment = Environment(loader=FileSystemLoader([handlers.template_path]))
    return environment.get_template("manage_students_assignments.tpl").render(student_id=student, base_url="")


def formgrader_page(autograded: Path, student: str) -> str:
    """The page nbgrader's formgrader serves for this submission: its exporter, template and resources."""
    from nbconvert.exporters import HTMLExporter
    from nbgrader.server_extensions.formgrader import handlers
    from traitlets.config import Config

    config = Config()
    config.HTMLExporter.template_name = "formgrade"
    config.HTMLExporter.extra_template_basedirs = [handlers.template_path]
    resources = {"assignment_id": ASSIGNMENT, "notebook_id": NOTEBOOK, "submission_id": "1", "index": 0, "total": 2,
                 "base_url": "", "student": student, "last_name": "", "first_name": "", "notebook_path": "n.ipynb"}
    return HTMLExporter(config=config).from_filename(str(autograded), resources=resources)[0]


@pytest.fixture(scope="module")
def graded(tmp_path_factory, prepared_course):
    """Both students graded into one OUT; their formgrader pages and feedback pages side by side in ``pages/``."""
    root = tmp_path_factory.mktemp("hostile")
    out, submissions, pages = root / "out", root / "submissions", root / "pages"
    source = read("source")
    written = [cell for cell in samples.solutions(source) if cell not in samples.autograded_answers(source)]
    for student, nb in ((GOOD, solved()), (BAD, hostile(read("release"), written))):
        write(submissions / student / ASSIGNMENT / f"{NOTEBOOK}.ipynb", nb)
    ids = {row["student"] for row in grade(submissions, out, prepared_course)}  # the students' ids in the gradebook
    ids = {GOOD: GOOD, BAD: (ids - {GOOD}).pop()}
    pages.mkdir()
    for student, name in ((GOOD, "good"), (BAD, "bad")):
        autograded = out / INSTRUCTOR_ONLY / "autograded" / ids[student] / ASSIGNMENT / f"{NOTEBOOK}.ipynb"
        (pages / f"formgrader-{name}.html").write_text(formgrader_page(autograded, ids[student]), encoding="utf-8")
        (pages / f"students-{name}.html").write_text(students_page(ids[student]), encoding="utf-8")
        shutil.copy(out / HAND_BACK / "feedback" / ids[student] / ASSIGNMENT / f"{NOTEBOOK}.html",
                    pages / f"feedback-{name}.html")
    return {"out": out, "pages": pages, "written": written, "ids": ids}


def marks(out: Path) -> dict:
    record = ClassRecord(out)
    return {key: record.mark(tuple(key.split("\t"))).summary for key in sorted(record.statuses)}


def visit(context, server: SiteServer, name: str) -> dict:
    """Open one page; what it requested (method and path or address), the dialogs it opened, the script flag,
    the live markup left in its cells, and whether the hidden text shows."""
    page, requests, dialogs, ran = context.new_page(), [], [], []
    page.expose_function("__ran", lambda: ran.append(1))  # in every frame, and kept if the page navigates away
    page.add_init_script("Object.defineProperty(window, '__pwned', {get: () => 0, set: () => window.__ran()})")
    page.on("request", lambda request: requests.append(f"{request.method} {request.url.removeprefix(server.origin)}")
            if request.url != server.url(name) else None)
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.on("console", lambda message: dialogs.append(message.text) if "pwned" in message.text else None)
    try:
        page.goto(server.url(name), wait_until="load")
        page.wait_for_timeout(1500)  # a refresh, a timer or a late handler has its chance
        for details in page.locator("details").all():
            details.evaluate("(el) => { el.open = !el.open; }")
        page.wait_for_timeout(200)
        return {"requests": set(requests), "dialogs": dialogs, "flag": len(ran),
                "live": page.evaluate(LIVE), "url": page.url,
                "hidden text shows": page.get_by_text(HIDDEN_TEXT).first.is_visible()
                if page.get_by_text(HIDDEN_TEXT).count() else None}
    finally:
        page.close()


@pytest.fixture(scope="module")
def seen(graded):
    if not CHROMIUM.is_file():
        pytest.skip(f"no chromium at {CHROMIUM} (`make browser` installs it as root on Debian)")
    from playwright.sync_api import sync_playwright

    before = marks(graded["out"])
    with SiteServer(graded["pages"]) as server, sync_playwright() as playwright:
        browser = launch(playwright)
        context = browser.new_context()
        context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(server.origin)
                      and route.request.method == "GET" else route.abort("blockedbyclient"))
        try:
            found = {name: visit(context, server, name) for name in sorted(p.name for p in graded["pages"].iterdir())}
        finally:
            browser.close()
    return found, before, marks(graded["out"])


@pytest.mark.parametrize("view", ["formgrader", "feedback", "students"])
def test_hostile_markup_runs_nothing_loads_nothing_and_hides_nothing(seen, view):
    found, before, after = seen
    good, bad = found[f"{view}-good.html"], found[f"{view}-bad.html"]
    assert bad["flag"] == 0 and bad["dialogs"] == [], f"script ran in the {view} page: {bad['dialogs']}"
    assert bad["requests"] <= good["requests"], f"requests the model answers' page does not make: " \
                                                f"{sorted(bad['requests'] - good['requests'])}"
    assert bad["url"].endswith(f"{view}-bad.html"), f"the page went elsewhere: {bad['url']}"
    assert sorted(bad["live"]) == sorted(good["live"]), f"live markup left in the {view} page: {bad['live']}"
    assert bad["hidden text shows"] or view == "students", "a student's text was hidden by its own CSS"  # none there
    assert before == after, "grades changed while the pages were open"


def test_the_formgraders_files_hold_only_inert_markup_and_ordinary_answers_keep_their_markdown(graded):
    out = graded["out"]
    for kind in ("submitted", "autograded"):
        nb = nbformat.read(str(out / INSTRUCTOR_ONLY / kind / graded["ids"][BAD] / ASSIGNMENT / f"{NOTEBOOK}.ipynb"),
                           as_version=4)
        shown = [c.source for c in nb.cells if c.cell_type != "code"] + [
            str(value) for c in nb.cells for o in c.get("outputs", []) for key, value in o.get("data", {}).items()
            if key != "text/plain"]
        assert not [text for text in shown if "onerror" in text or "<script" in text or "javascript:" in text], kind
    good = nbformat.read(str(out / INSTRUCTOR_ONLY / "autograded" / GOOD / ASSIGNMENT / f"{NOTEBOOK}.ipynb"),
                         as_version=4)
    answers = samples.solutions(read("source"))
    kept = [c.source for c in good.cells if c.cell_type == "markdown" and c.metadata.get("nbgrader", {}).get(
        "grade_id") in graded["written"]]
    assert kept == [answers[cell] for cell in graded["written"]]  # math, Markdown, all as written
