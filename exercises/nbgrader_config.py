"""nbgrader configuration of the course *Where Words Are*: one assignment per chapter of the book.

Run nbgrader from this folder (``cd exercises && nbgrader generate_assignment ch04_rotation``), or let
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
