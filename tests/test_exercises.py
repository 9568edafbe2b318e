"""The exercise course: its structure, its self-checks, and its tests against right and wrong answers.

The fast tests here grade one answer at a time as the grader does, without nbgrader: the set-up cells,
the answer and its self-check (the locked, ungraded cell under it) run in a process of their own, a
stand-in for the student's kernel, and the hidden tests run here with the grader's own
:func:`posenc_grader.hidden.run`, calling into that process for wire data. The slow ones use nbgrader
itself: the source notebooks must validate with full marks, and the committed student versions must be
what nbgrader generates today. ``tests/test_grading.py`` grades whole notebooks, right, blank, wrong and
broken, through the pipeline.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import multiprocessing
import re
import sys
from pathlib import Path

import cheats
import nbformat
import pytest
import scipy.linalg  # noqa: F401 -- imported once here, where every forked stand-in for a kernel inherits them,
import scipy.special  # noqa: F401 -- rather than once in each: the other correct answers use scipy and torch
import torch

from posenc.book.answers import SelfCheckFailed
from posenc_grader import hidden, samples, wire
from posenc_grader.course import Course, answer_files, answer_source, nbgrader_meta

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import exercise_table  # noqa: E402
import new_question  # noqa: E402
import self_checks  # noqa: E402

COURSE = Course.find(ROOT / "exercises")
TESTS = Path(__file__).resolve().parent


def source_notebooks() -> dict[str, nbformat.NotebookNode]:
    return {f"{a}/{n}": nbformat.read(str(COURSE.source(a, n)), as_version=4)
            for a, notebooks in COURSE.assignments().items() for n in notebooks}


SOURCES = source_notebooks()


def answers() -> list[tuple[str, str]]:
    """(notebook key, answer grade id) for every autograded answer of the course."""
    return [(key, answer) for key, nb in SOURCES.items() for answer in samples.autograded_answers(nb)]


def cell(nb, grade_id: str):
    return next(c for c in nb.cells if nbgrader_meta(c).get("grade_id") == grade_id)


def wrong_solutions(answer: str) -> list[Path]:
    return answer_files(TESTS, "wrong", answer)


def correct_solutions(answer: str) -> list[Path]:
    return answer_files(TESTS, "correct", answer)


def _serve(connection, sources: list[str]) -> None:
    """The student's side: run ``sources`` as cells (a failing cell does not stop the others), then answer
    requests, in JSON, to run a cell or to call a function as :func:`posenc_grader.wire.answer` does."""
    torch.set_num_threads(1)  # a forked child must not use the OpenMP threads the parent's torch may have started
    namespace: dict = {"__name__": "__main__"}
    for source in sources:
        with contextlib.suppress(Exception), contextlib.redirect_stdout(io.StringIO()):
            exec(source, namespace)
    while True:
        request = json.loads(connection.recv_bytes())
        if "call" in request:
            reply = wire.answer(namespace, request["call"], request["request"])
        else:
            out = io.StringIO()
            try:
                with contextlib.redirect_stdout(out):
                    exec(request["run"], namespace)
                reply = ["pass", out.getvalue()]
            except Exception as error:  # whatever the answer makes the cell raise
                reply = [type(error).__name__, str(error)]
        connection.send_bytes(json.dumps(reply).encode())


class Kernel:
    """A stand-in for a student's kernel: a forked process that runs the student's cells and answers calls."""

    def __init__(self, sources: list[str]):
        context = multiprocessing.get_context("fork")
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, sources), daemon=True)
        self.process.start()

    def _ask(self, request: dict):
        self.connection.send_bytes(json.dumps(request).encode())
        assert self.connection.poll(60), f"the student's process did not answer {list(request)[0]} within 60 s"
        return json.loads(self.connection.recv_bytes())

    def run(self, source: str) -> tuple[str, str]:
        return tuple(self._ask({"run": source}))

    def call(self, name: str, request: dict) -> dict | None:
        return self._ask({"call": name, "request": request})

    def close(self) -> None:
        self.process.kill()
        self.process.join()


def run_cells(nb, answer: str, answer_source: str) -> tuple[tuple[str, str], hidden.Failure | None]:
    """Grade ``answer_source`` as the answer ``answer`` of ``nb``: set-up cells, the answer and its self-check in a
    :class:`Kernel`, then the hidden tests here, as the grader does.

    Returns what the self-check gave ("pass" or the exception's name, and what it printed or said) and the
    failure of the hidden tests (None when they pass).
    """
    setup = [c.source for c in nb.cells if c.cell_type == "code" and nbgrader_meta(c).get("locked")
             and not nbgrader_meta(c).get("grade") and not nbgrader_meta(c)["grade_id"].endswith("_check")]
    kernel = Kernel([*setup, answer_source])
    try:
        checked = kernel.run(cell(nb, f"{answer}_check").source)
        failure = hidden.run(hidden.split(cell(nb, f"{answer}_tests").source)[1], hidden.answer_functions(nb),
                             kernel.call)
    finally:
        kernel.close()
    return checked, failure


# ---------------------------------------------------------------- structure of the course


def test_course_has_one_assignment_per_chapter():
    chapters = sorted(p.name[:2] for p in (ROOT / "chapters").glob("[0-9][0-9]_*.ipynb"))
    assert [a[2:4] for a in COURSE.assignments()] == chapters, (
        "exercises/source should hold one assignment per chapter, named chNN_<topic> after chapters/NN_*.ipynb: "
        f"found {sorted(COURSE.assignments())} for the chapters {chapters}")
    assert all(len(notebooks) == 1 for notebooks in COURSE.assignments().values()), \
        "an assignment holds one notebook: put a second one in an assignment of its own"


def test_course_is_worth_at_least_sixty_points():
    points = sum(nbgrader_meta(c).get("points", 0) for nb in SOURCES.values() for c in nb.cells
                 if nbgrader_meta(c).get("grade"))
    autograded = sum(nbgrader_meta(c).get("points", 0) for nb in SOURCES.values() for c in nb.cells
                     if nbgrader_meta(c).get("grade") and c.cell_type == "code")
    assert points >= 60
    assert autograded >= 60


def test_grade_ids_are_unique_across_the_course_and_name_their_chapter():
    ids = [nbgrader_meta(c)["grade_id"] for nb in SOURCES.values() for c in nb.cells if nbgrader_meta(c)]
    twice = sorted({grade_id for grade_id in ids if ids.count(grade_id) > 1})
    assert not twice, f"give these cells ids of their own (nbgrader's grade_id, in the cell's metadata): {twice}"
    for key, nb in SOURCES.items():
        stray = [nbgrader_meta(c)["grade_id"] for c in nb.cells if nbgrader_meta(c)
                 and not nbgrader_meta(c)["grade_id"].startswith(key[:4])]
        assert not stray, f"{key}: start these grade ids with {key[:4]}_ (the grader knows notebooks by them): {stray}"


@pytest.mark.parametrize("key", sorted(SOURCES))
def test_source_notebook_is_stored_without_outputs_and_starts_with_the_colab_cell(key):
    chapter_one = nbformat.read(str(ROOT / "chapters" / "01_attention_sees_a_set.ipynb"), as_version=4)
    colab = next(c for c in chapter_one.cells if c.cell_type == "code").source
    nb = SOURCES[key]
    assert not any(c.get("outputs") for c in nb.cells if c.cell_type == "code")
    assert next(c for c in nb.cells if c.cell_type == "code").source == colab


@pytest.mark.parametrize("key,answer", answers())
def test_every_answer_has_an_ungraded_self_check_and_a_test_cell_of_hidden_tests(key, answer):
    """Only the hidden tests decide the points: a self-check that fails never costs one."""
    nb = SOURCES[key]
    ids = [nbgrader_meta(c).get("grade_id") for c in nb.cells]
    assert ids[ids.index(answer) + 1: ids.index(answer) + 3] == [f"{answer}_check", f"{answer}_tests"], \
        f"{answer}: under the answer cell come its self-check, {answer}_check, then its test cell, {answer}_tests"
    check_meta, tests = nbgrader_meta(cell(nb, f"{answer}_check")), cell(nb, f"{answer}_tests")
    assert check_meta["locked"] and not check_meta["grade"], f"{answer}_check: a self-check is locked and not graded"
    meta = nbgrader_meta(tests)
    assert meta["grade"] and meta["locked"] and meta["points"] > 0, \
        f"{answer}_tests: a test cell is graded, locked and worth points (nbgrader metadata)"
    shown, hidden_tests = hidden.split(tests.source)
    assert not ast.parse(shown).body, f"{answer}_tests: outside its hidden tests a test cell holds comments only"
    assert hidden_tests.strip(), f"{answer}_tests: put the hidden tests between ### BEGIN HIDDEN TESTS and ### END"


#: posenc functions that a self-check may call because they judge a property of an answer and compute none
#: (chapter 6's design_lookback: the attention weights of the pair of vectors a student designs).
JUDGES = {"last_query_weights", "offset_scores"}


def solution_leaks(nb) -> list[str]:
    """What the student version ``nb`` shows of a solution: a reference (``want=``) or near-solutions
    (``mistakes=``) in any cell, and in its self-checks and test cells a function written out (def or lambda) or
    a call of a posenc function (imported in the notebook, outside ``posenc.book``) that may compute an answer."""
    from_posenc = {alias.asname or alias.name for c in nb.cells if c.cell_type == "code"
                   for node in ast.walk(ast.parse(c.source)) if isinstance(node, ast.ImportFrom)
                   and (node.module or "").startswith("posenc") and not (node.module or "").startswith("posenc.book")
                   for alias in node.names}
    leaks = []
    for c in nb.cells:
        grade_id, checks = nbgrader_meta(c).get("grade_id", ""), nbgrader_meta(c).get("grade_id", "").endswith(
            ("_check", "_tests"))
        for node in ast.walk(ast.parse(c.source)) if c.cell_type == "code" else ():
            called = node.func if isinstance(node, ast.Call) else None
            name = called.id if isinstance(called, ast.Name) else getattr(called, "attr", None)
            base = getattr(getattr(called, "value", None), "id", None)
            if isinstance(node, ast.keyword) and node.arg in ("want", "mistakes"):
                leaks.append(f"{grade_id}: {node.arg}=")
            elif checks and isinstance(node, (ast.Lambda, ast.FunctionDef)):
                leaks.append(f"{grade_id}: a function written out, line {node.lineno}")
            elif checks and (name in from_posenc or base in from_posenc) and name not in JUDGES:
                leaks.append(f"{grade_id}: a call of posenc's {name}, line {node.lineno}")
    return leaks


@pytest.mark.parametrize("key", sorted(SOURCES))
def test_no_student_version_holds_or_calls_a_solution(key):
    release = nbformat.read(str(COURSE.root / "release" / f"{key}.ipynb"), as_version=4)
    assert solution_leaks(release) == [], "a student reads every visible cell: store the self-check's values instead"


def test_the_scan_for_solutions_finds_the_old_form_of_a_self_check():
    """The form every self-check had before: a reference, near-solutions and a posenc call in plain sight."""
    old = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("from posenc.geometry import rotation_2d", metadata={"nbgrader": {"grade_id": "a"}}),
        nbformat.v4.new_code_cell("check(rotation, [(0.5,)], want=rotation_2d,\n"
                                  "      mistakes=[(lambda a: rotation_2d(-a), 'clockwise', 'signs')], hint='')",
                                  metadata={"nbgrader": {"grade_id": "ch04_rotation_tests"}})])
    assert solution_leaks(old) == ["ch04_rotation_tests: want=", "ch04_rotation_tests: mistakes=",
                                   "ch04_rotation_tests: a function written out, line 2",
                                   "ch04_rotation_tests: a call of posenc's rotation_2d, line 2"]


def test_every_assertion_of_the_hidden_tests_says_what_is_wrong():
    """A student sees the message of a failed hidden assertion, never its code or the values it compares: every
    `assert` has a message, every `np.testing.assert_*`-style call an `err_msg=` (or `msg=`). All are listed at once."""
    silent = [f"{answer}_tests, line {line}" for key, answer in answers()
              for line in hidden.unsaid(hidden.split(cell(SOURCES[key], f"{answer}_tests").source)[1])]
    assert not silent, (f"give these assertions of the hidden tests a message that says what is wrong, never the "
                        f"expected numbers (`assert ..., 'what is wrong'`, `np.testing.assert_allclose(..., "
                        f"err_msg='what is wrong')`): {silent}")


@pytest.mark.parametrize("key,answer", answers())
def test_every_answer_has_at_least_two_plausible_wrong_solutions(key, answer):
    wrong = wrong_solutions(answer)
    assert len(wrong) >= 2, (f"tests/{answer[:4]}/wrong_solutions/{answer}/ holds {len(wrong)} answers: add at least "
                             "two plausible mistakes, each a .py file that defines the answer's function and says in "
                             "its docstring what is wrong")
    for path in wrong:
        assert ast.get_docstring(ast.parse(path.read_text())), f"{path} should say what is wrong in its docstring"


def test_exercises_page_links_every_student_version_on_colab_and_binder_with_its_points():
    """The points table is written from the notebooks by tools/exercise_table.py (make new-question runs it)."""
    assert exercise_table.main(["--check"]) == 0, "run `python tools/exercise_table.py` to write the points table"
    page = (ROOT / "appendix" / "exercises.md").read_text(encoding="utf-8")
    for key, nb in SOURCES.items():
        auto, by_hand = exercise_table.points(nb)
        row = next(line for line in page.splitlines() if f"/release/{key}.ipynb" in line)
        assert f"| {auto} + {by_hand} |" in row
        # the {colab} and {binder} roles (_ext/plain_edition.py) link the release tag; tests/test_plain_edition.py
        # checks the built links
        assert f"{{colab}}`exercises/release/{key}.ipynb`" in row
        assert f"{{binder}}`exercises/release/{key}.ipynb`" in row
        assert (COURSE.root / "release" / f"{key}.ipynb").is_file()


def test_no_template_of_a_new_question_is_left_unfinished():
    """make new-question writes templates that say TODO where the author is needed."""
    unfinished = [f"exercises/source/{key}.ipynb, cell {nbgrader_meta(c).get('grade_id')}"
                  for key, nb in SOURCES.items() for c in nb.cells if "TODO" in c.source]
    unfinished += [str(path.relative_to(ROOT)) for path in sorted(TESTS.glob("ch[0-9][0-9]/*_solutions/**/*.py"))
                   if "TODO" in path.read_text(encoding="utf-8")]
    assert not unfinished, ("replace the TODOs of the new question's templates (the instructor guide says what each "
                            "holds): " + "; ".join(unfinished))


def test_a_new_question_gets_its_cells_its_solution_folders_and_its_points(tmp_path):
    for part in ("exercises/source/ch03_ladder", "appendix", "tests"):
        (tmp_path / part).mkdir(parents=True)
    (tmp_path / "chapters").mkdir()
    (tmp_path / "chapters" / "03_ladder_of_frequencies.ipynb").touch()
    source = tmp_path / "exercises" / "source" / "ch03_ladder" / "ladder.ipynb"
    source.write_bytes(COURSE.source("ch03_ladder", "ladder").read_bytes())
    (tmp_path / "appendix" / "exercises.md").write_text("# Exercises\n\n" + "\n".join(exercise_table.HEADER) + "\n")
    before = nbformat.read(str(source), as_version=4)
    number = max(int(m.group(1)) for c in before.cells if (m := re.match(r"## (\d+)\.", c.source)))
    assert new_question.main(["ch03_ladder", "half_turns", "2", "--args", "d, base=10000.0",
                              "--root", str(tmp_path)]) == 0
    nb = nbformat.read(str(source), as_version=4)
    question, answer, self_check, tests = nb.cells[-4:]
    assert question.source.startswith(f"## {number + 1}. `half_turns` (2 points)") and nbgrader_meta(question)["locked"]
    assert nbgrader_meta(answer) == {"grade": False, "grade_id": "ch03_half_turns", "locked": False,
                                     "schema_version": 3, "solution": True}
    assert answer.source.startswith("def half_turns(d, base=10000.0):")
    assert nbgrader_meta(self_check)["grade_id"] == "ch03_half_turns_check" and not nbgrader_meta(self_check)["grade"]
    assert nbgrader_meta(tests)["points"] == 2 and nbgrader_meta(tests)["grade_id"] == "ch03_half_turns_tests"
    assert hidden.answer_functions(nb)[-1] == "half_turns"
    auto, by_hand = exercise_table.points(before)
    assert f"| {auto + 2} + {by_hand} |" in (tmp_path / "appendix" / "exercises.md").read_text()
    assert sorted(p.name for p in (tmp_path / "tests" / "ch03").glob("*/ch03_half_turns/*.py")) == [
        "mistake_one.py", "mistake_two.py"]
    form = tmp_path / "tests" / "ch03" / "correct_solutions" / "another_form.py"
    assert new_question.main(["ch03_ladder", "whole_turns", "1", "--root", str(tmp_path)]) == 0
    assert answer_files(tmp_path / "tests", "correct", "ch03_half_turns") == [form], "one file a form, all questions"
    assert answer_files(tmp_path / "tests", "correct", "ch03_whole_turns") == [form]
    assert "half_turns" not in answer_source(form, "ch03_whole_turns")
    assert self_checks.main(["ch03_ladder", "--root", str(tmp_path)]) == 2, "no values are stored without inputs"
    assert new_question.main(["ch03_ladder", "half_turns", "2", "--root", str(tmp_path)]) == 2
    assert new_question.main(["ch3", "other", "2", "--root", str(tmp_path)]) == 2


def test_instructor_guide_states_the_grader_defaults():
    from posenc_grader import Limits

    guide, limits = (ROOT / "appendix" / "instructor_guide.md").read_text(encoding="utf-8"), Limits()
    for option, value in [("--cell-timeout", limits.cell_timeout), ("--notebook-timeout", limits.notebook_timeout),
                          ("--memory-mb", limits.memory_mb), ("--max-file-mb", limits.max_file_mb)]:
        assert re.search(rf"`{option}` \([^)]*default {value}\)", guide), option
    assert f"cut to {limits.max_output_chars:,} characters" in guide


# ---------------------------------------------------------------- answers against tests, in this process


HIDDEN_RULE = ("The hidden tests run in the grader's own Python, beside the student's kernel: they see numpy as `np` "
               "and the notebook's answer functions; import anything else they use inside the hidden block.")


@pytest.mark.parametrize("key,answer", answers())
def test_model_answer_passes_its_self_check_and_hidden_tests(key, answer):
    (outcome, output), failure = run_cells(SOURCES[key], answer, samples.solutions(SOURCES[key])[answer])
    assert outcome == "pass" and "\N{CHECK MARK}" in output, \
        f"{answer}: the model answer fails its self-check ({outcome}: {output}); run `python tools/self_checks.py`"
    assert failure is None, f"{answer}: the model answer fails its hidden tests ({failure}). {HIDDEN_RULE}"


@pytest.mark.parametrize("key,answer,wrong", [(k, a, w) for k, a in answers() for w in wrong_solutions(a)],
                         ids=lambda value: value.stem if isinstance(value, Path) else str(value))
def test_wrong_answer_fails_both_self_check_and_hidden_tests_and_the_self_check_names_it(key, answer, wrong):
    (outcome, message), failure = run_cells(SOURCES[key], answer, wrong.read_text())
    assert outcome == "SelfCheckFailed", f"{wrong.name} passes the self-check of {answer}: {message}"
    if answer != "ch06_design_lookback":  # judged by a property: its self-check says where the weight went
        problem = " ".join(ast.get_docstring(ast.parse(wrong.read_text())).partition("Hint:")[0].split())
        assert f": {problem} Hint: " in message, f"the self-check of {answer} does not name {wrong.name}: {message}"
    assert not re.search(r"\d\.\d{5,}|\[\[", message), f"a hint with a precise number: {message}"
    assert failure is not None, f"{wrong.name} passes the hidden tests of {answer}: make them catch it"


@pytest.mark.parametrize("key,answer", answers())
def test_self_check_of_an_unwritten_answer_says_so(key, answer):
    stub = "\n".join(line for line in cell(SOURCES[key], answer).source.split("\n")
                     if not line.strip().startswith("###") and "return" not in line)
    body = stub.rstrip() + "\n    raise NotImplementedError()\n"
    (outcome, message), failure = run_cells(SOURCES[key], answer, body)
    assert outcome == "SelfCheckFailed"
    assert "not written yet" in message
    assert failure is not None, f"{answer}: the student version passes the hidden tests"


CORPUS = [(k, a, path) for k, a in answers() for path in correct_solutions(a)]


def test_the_corpus_of_other_correct_answers_covers_every_answer_and_the_usual_forms():
    without = sorted({a for _, a in answers()} - {a for _, a, _ in CORPUS})
    assert not without, (f"add a correct answer written another way (a function in tests/chNN/correct_solutions/"
                         f"<form>.py, one file a form: loops, float32, torch, ...) for {without}")
    forms = {path.stem for _, _, path in CORPUS}
    assert {"loops", "float32", "torch", "numpy_scalar", "zero_d", "matrix", "scipy", "einsum", "complex"} <= forms
    functions = {key[:4]: set(hidden.answer_functions(nb)) for key, nb in SOURCES.items()}
    for path in sorted(TESTS.glob("ch[0-9][0-9]/correct_solutions/*.py")):
        tree = ast.parse(path.read_text())
        assert ast.get_docstring(tree), f"{path} should say how its form differs in its docstring"
        stray = [node.name for node in tree.body if isinstance(node, ast.FunctionDef)
                 and not node.name.startswith("_") and node.name not in functions[path.parts[-3]]]
        assert not stray, f"{path}: no question of its assignment asks for {stray} (name a helper _{stray[0]})"


@pytest.mark.parametrize("key,answer,correct", CORPUS,
                         ids=lambda value: value.stem if isinstance(value, Path) else str(value))
def test_a_correct_answer_written_differently_passes_self_check_and_hidden_tests(key, answer, correct):
    (outcome, output), failure = run_cells(SOURCES[key], answer, answer_source(correct, answer))
    assert outcome == "pass" and "\N{CHECK MARK}" in output, output
    assert failure is None, f"{correct.name} loses the points of {answer}: {failure}"


@pytest.mark.parametrize("kind", sorted(cheats.RETURNS))
@pytest.mark.parametrize("key,answer", answers())
def test_an_answer_that_reads_the_graders_values_fails_the_hidden_tests(key, answer, kind):
    """The cheats of tests/cheats.py silence the self-checks and try to read the expected values."""
    source = cheats.cheat(kind, cheats.names(samples.solutions(SOURCES[key])[answer]))
    _, failure = run_cells(SOURCES[key], answer, source)
    assert failure is not None, f"{kind} passed the hidden tests of {answer}"
    if kind in ("frames", "inspect", "gc", "globals"):
        assert re.search(r"returned an? Anything, expected", failure.message), failure.message


def test_self_check_failure_shows_as_one_line_in_jupyter():
    error = SelfCheckFailed("rotation: it turns clockwise.")
    assert error._render_traceback_() == ["\N{BALLOT X} rotation: it turns clockwise."]
    assert isinstance(error, AssertionError)


def test_the_self_checks_live_in_the_notebooks_and_use_the_one_rule_of_posenc():
    """No module of the package holds a question's self-check (a new question needs no release), and the rule
    they share imports nothing beyond numpy, so that a notebook opened alone on Colab can run it."""
    import posenc.book
    import posenc.book.answers

    assert not (Path(posenc.book.__file__).parent / "selfcheck").exists()
    imported = {node.names[0].name if isinstance(node, ast.Import) else node.module
                for node in ast.walk(ast.parse(Path(posenc.book.answers.__file__).read_text()))
                if isinstance(node, (ast.Import, ast.ImportFrom))}
    assert {name.split(".")[0] for name in imported} <= {"__future__", "base64", "builtins", "collections", "json",
                                                         "typing", "warnings", "zlib", "numpy"}
    for key, nb in SOURCES.items():
        setup = "\n".join(c.source for c in nb.cells if nbgrader_meta(c).get("locked") and c.cell_type == "code")
        assert "from posenc.book.answers import check" in setup, f"{key}: import check in the set-up cell"


# ---------------------------------------------------------------- with nbgrader itself


@pytest.mark.grader
def test_committed_student_versions_are_what_nbgrader_generates(prepared_course):
    from posenc_grader.release import stale

    assert stale(COURSE, prepared_course / "course") == [], \
        "run `make exercises`: the student versions must be what nbgrader makes of the sources"


@pytest.mark.grader
@pytest.mark.parametrize("key", sorted(SOURCES))
def test_source_notebook_validates_with_full_marks(key):
    from nbgrader.validator import Validator
    from traitlets.config import Config

    config = Config()
    config.Execute.timeout = 60
    failed = Validator(config=config).validate(str(COURSE.root / "source" / f"{key}.ipynb"))
    assert failed == {}, f"{key}: with the model answers, these test cells fail under plain nbgrader: {failed}"
