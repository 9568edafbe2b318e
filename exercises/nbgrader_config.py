"""nbgrader configuration of the course *Where Words Are*: one assignment per chapter of the book.

Run nbgrader from this folder (``cd exercises && nbgrader generate_assignment ch04_rotation --force``), or let
``python -m posenc_grader`` and ``python -m posenc_grader.release`` do it for you.
"""

c = get_config()  # noqa: F821 -- nbgrader provides get_config when it loads this file

c.CourseDirectory.course_id = "where-words-are"

# Student versions: the text that replaces a solution, in code and in Markdown cells.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"

# Grading: a cell that runs longer than this fails (an endless loop), and the kernel is interrupted.
c.Execute.timeout = 30
c.Execute.interrupt_on_timeout = True
c.LimitOutput.max_lines = 200

# Whatever a student wrote (Markdown, raw HTML, what their code displays) is made inert after grading, before the
# formgrader or a feedback page shows it, and again whenever nbconvert renders a page (the formgrader's included):
# posenc_grader.sanitize.Sanitize (nh3), from the grader's distribution (grader/).
from nbgrader.converters import Autograde  # noqa: E402

SANITIZE = "posenc_grader.sanitize.Sanitize"
c.Autograde.autograde_preprocessors = [*Autograde.class_traits()["autograde_preprocessors"].default(), SANITIZE]
c.HTMLExporter.preprocessors = [SANITIZE]
# nbgrader's own feedback (`nbgrader generate_feedback`, the formgrader's button) shows every hidden test's code
# unless they are cut: posenc_grader.feedback.HideHiddenTests does, before nbgrader's own two steps.
c.GenerateFeedback.preprocessors = ["posenc_grader.feedback.HideHiddenTests", "nbgrader.preprocessors.GetGrades",
                                    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor"]
