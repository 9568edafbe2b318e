"""Feedback pages, what students receive: nbgrader's feedback page, with no hidden test in it.

:func:`render` makes a row's page from its autograded notebook and the class gradebook as they are at that
moment, so that grading again and refreshing after grading by hand give the same page. The autograded notebook
keeps the hidden tests, for the formgrader; the page never has them (:class:`HideHiddenTests`, before anything is
rendered). Its heading gives the points apart (:class:`~posenc_grader.marks.Mark`), and a written answer not
graded yet says "pending", not 0 (:class:`ClassGrades`, and ``templates/posenc_feedback``, nbgrader's template
with those two changes). What the student wrote is made inert (:class:`~posenc_grader.sanitize.Sanitize`, also
in a notebook autograded before the grader did that), and escape sequences, which nbconvert passes through, are
written out as text. A row that was not graded gets a page that says why (:func:`plain_page`).
"""

from __future__ import annotations

import functools
import html
from pathlib import Path

from nbconvert.preprocessors import Preprocessor
from nbgrader.preprocessors import GetGrades
from traitlets import Bool

from .course import HIDDEN_TESTS
from .escapes import disarm
from .sanitize import Sanitize

TEMPLATES = Path(__file__).resolve().parent / "templates"
TEMPLATE = "posenc_feedback"
HIDDEN_NOTE = "# (hidden tests: their code is not shown)"


def hide(source: str) -> str:
    """``source`` with each hidden-tests region replaced by :data:`HIDDEN_NOTE`; an unclosed one runs to the end."""
    while HIDDEN_TESTS[0] in source:
        before, _, rest = source.partition(HIDDEN_TESTS[0])
        source = before + HIDDEN_NOTE + rest.partition(HIDDEN_TESTS[1])[2]
    return source


class HideHiddenTests(Preprocessor):
    """Replace the code of every hidden-tests region of a code cell by :data:`HIDDEN_NOTE`.

    On by default, so that naming it in ``c.GenerateFeedback.preprocessors`` is enough (see
    :data:`posenc_grader.records.SAFE_FEEDBACK`)."""

    enabled = Bool(True)

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "code":
            cell.source = hide(cell.source)
        return cell, resources


class ClassGrades(GetGrades):
    """nbgrader's ``GetGrades``, which also flags a graded cell ``pending`` while neither score exists."""

    def _get_score(self, cell, resources) -> None:
        meta = cell.metadata.nbgrader
        grade = self.gradebook.find_grade(meta["grade_id"], self.notebook_id, self.assignment_id, self.student_id)
        meta["score"], meta["points"] = grade.score, grade.max_score
        meta["pending"] = grade.auto_score is None and grade.manual_score is None


@functools.cache
def _exporter():
    """An HTML exporter with nbgrader's feedback styles, :data:`TEMPLATE`, the two preprocessors above and
    :class:`~posenc_grader.sanitize.Sanitize`."""
    import nbgrader
    from nbconvert.exporters import HTMLExporter
    from nbconvert.preprocessors import CSSHTMLHeaderPreprocessor
    from traitlets.config import Config

    formgrader = Path(nbgrader.__file__).resolve().parent / "server_extensions" / "formgrader"
    config = Config()
    config.Exporter.default_preprocessors = []
    config.HTMLExporter.template_name = TEMPLATE
    config.HTMLExporter.extra_template_basedirs = [str(TEMPLATES)]
    # nbgrader's templates, which ours extends ("feedback/index.html.j2"), and the styles its pages inline
    bootstrap = formgrader / "static" / "node_modules" / "bootstrap" / "dist" / "css"
    config.HTMLExporter.extra_template_paths = [str(formgrader / "templates"), str(bootstrap)]
    exporter = HTMLExporter(config=config)
    for preprocessor in (HideHiddenTests, Sanitize, ClassGrades, CSSHTMLHeaderPreprocessor):
        exporter.register_preprocessor(preprocessor, enabled=True)
    return exporter


def render(autograded: Path, key: tuple[str, str, str], summary: str, db_url: str) -> str:
    """The page of the autograded notebook of ``key`` (student, assignment, notebook), headed by ``summary``, with the
    scores of the gradebook at ``db_url``."""
    student, assignment, notebook = key
    resources = {"unique_key": notebook, "posenc": {"summary": summary},
                 "nbgrader": {"student": student, "assignment": assignment, "notebook": notebook, "db_url": db_url}}
    page, _ = _exporter().from_filename(str(autograded), resources=resources)
    return disarm(page, keep="\n\r\t")


def for_student(status: str, message: str) -> str:
    """A row's message as a student may read it: for a failure of the grader itself, not the message, which may
    quote the grader's code and files."""
    return "the grader could not grade this file; your instructor will look at it" if status == "grader_error" \
        else message


def plain_page(assignment: str, notebook: str, status: str, message: str) -> str:
    """The page of a row that was not graded: its status and why (:func:`for_student`)."""
    message = for_student(status, message)
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(notebook)}</title></head>"
            f"<body><h1>{html.escape(assignment)} / {html.escape(notebook)}.ipynb: not graded</h1>"
            f"<p><b>{html.escape(status)}</b>: {html.escape(message)}</p></body></html>\n")
