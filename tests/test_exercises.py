"""The exercise course: its structure, its self-checks, and its tests against right and wrong answers.

Every question is checked with each of its answers (the model answer, the other correct forms, the listed
mistakes) by ``tools/self_checks.py``'s :func:`problems`, in this process: they are the course's own answers. The
cheats of ``tests/cheats.py`` attack the grading, so they run in a process of their own, a stand-in for the
student's kernel, called through the grader's wire by :func:`posenc_grader.hidden.run`. The slow tests use nbgrader
itself. ``tests/test_grading.py`` grades whole notebooks through the pipeline.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import json
import multiprocessing
import re
import runpy
import shutil
from pathlib import Path

import cheats
import exercise_table
import nbformat
import new_question
import pytest
import self_checks
import torch
from grading_kit import CLOCKWISE, COURSE, ROOT

from posenc.book.answers import SelfCheckFailed
from posenc_grader import grade_class, hidden, release, samples, wire
from posenc_grader.course import Course, answer_files, answer_source, nbgrader_meta

TESTS = ROOT / "tests"

SOURCES = {f"{a}/{n}": nbformat.read(str(COURSE.source(a, n)), as_version=4)
           for a, notebooks in COURSE.assignments().items() for n in notebooks}


def cell(nb, grade_id: str):
    return next(c for c in nb.cells if nbgrader_meta(c).get("grade_id") == grade_id)


def _serve(connection, setup: list[str], answers: dict[str, str]) -> None:
    """The students' side: run the set-up cells and each of ``answers`` in a namespace of its own, then answer calls
    ``[which answer, function name, request]``, in JSON, as :func:`posenc_grader.wire.answer` does."""
    torch.set_num_threads(1)  # a forked child must not use the OpenMP threads the parent's torch may have started
    namespaces = {which: self_checks.cells_run(setup, source) for which, source in answers.items()}
    while True:
        which, name, request = json.loads(connection.recv_bytes())
        connection.send_bytes(json.dumps(wire.answer(namespaces[which], name, request)).encode())


@contextlib.contextmanager
def kernel(setup: list[str], answers: dict[str, str]):
    """A stand-in for the students' kernels, a forked process that runs the set-up cells and each of ``answers``;
    yields ``call(which answer, function name, request)``, the way into it of :func:`posenc_grader.hidden.run`."""
    context = multiprocessing.get_context("fork")
    connection, child = context.Pipe()
    process = context.Process(target=_serve, args=(child, setup, answers), daemon=True)
    process.start()

    def call(which: str, name: str, request: dict) -> dict:
        connection.send_bytes(json.dumps([which, name, request]).encode())
        assert connection.poll(60), f"the student's process did not answer a call of {name} within 60 s"
        return json.loads(connection.recv_bytes())

    try:
        yield call
    finally:
        process.kill()
        process.join()


# ---------------------------------------------------------------- structure of the course


def test_course_has_one_assignment_per_chapter():
    chapters = sorted(p.name[:2] for p in (ROOT / "chapters").glob("[0-9][0-9]_*.ipynb"))
    assert [a[2:4] for a in COURSE.assignments()] == chapters, (
        "exercises/source should hold one assignment per chapter, named chNN_<topic> after chapters/NN_*.ipynb: "
        f"found {sorted(COURSE.assignments())} for the chapters {chapters}")
    assert all(len(notebooks) == 1 for notebooks in COURSE.assignments().values()), \
        "an assignment holds one notebook: put a second one in an assignment of its own"


def test_course_is_worth_at_least_sixty_autograded_points():
    autograded = sum(nbgrader_meta(c).get("points", 0) for nb in SOURCES.values() for c in nb.cells
                     if nbgrader_meta(c).get("grade") and c.cell_type == "code")
    assert autograded >= 60


def test_grade_ids_are_unique_across_the_course_and_name_their_chapter():
    ids = [nbgrader_meta(c)["grade_id"] for nb in SOURCES.values() for c in nb.cells if nbgrader_meta(c)]
    twice = sorted({grade_id for grade_id in ids if ids.count(grade_id) > 1})
    assert not twice, f"give these cells ids of their own (nbgrader's grade_id, in the cell's metadata): {twice}"
    for key, nb in SOURCES.items():
        stray = [nbgrader_meta(c)["grade_id"] for c in nb.cells if nbgrader_meta(c)
                 and not nbgrader_meta(c)["grade_id"].startswith(key[:4])]
        assert not stray, f"{key}: start these grade ids with {key[:4]}_ (the grader knows notebooks by them): {stray}"


def test_source_notebooks_are_stored_without_outputs():
    """(Their first code cell is the install cell: tests/test_course_links.py.)"""
    assert [key for key, nb in SOURCES.items() if any(c.get("outputs") for c in nb.cells)] == []


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


def test_exercises_page_links_every_student_version_on_colab_and_binder_with_its_points():
    """The points table, with the {colab} and {binder} roles of each student version (_ext/plain_edition.py; their
    built links: tests/test_plain_edition.py), is written from the notebooks by tools/exercise_table.py (make
    new-question runs it); the student versions it links are there."""
    assert exercise_table.main(["--check"]) == 0, "run `python tools/exercise_table.py` to write the points table"
    assert [key for key in SOURCES if not (COURSE.root / "release" / f"{key}.ipynb").is_file()] == []


def test_no_template_of_a_new_question_is_left_unfinished():
    """make new-question writes templates that say TODO where the author is needed."""
    assert COURSE.unfinished() == [], "replace the TODOs of the new question's templates (the guide says how)"


def test_a_new_question_gets_its_cells_its_solution_folders_and_its_points_and_is_checked_once_written(tmp_path):
    for part in ("exercises/source/ch03_ladder", "appendix"):
        (tmp_path / part).mkdir(parents=True)
    shutil.copytree(TESTS / "ch03", tmp_path / "tests" / "ch03", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "chapters").mkdir()
    (tmp_path / "chapters" / "03_ladder_of_frequencies.ipynb").touch()
    source = tmp_path / "exercises" / "source" / "ch03_ladder" / "ladder.ipynb"
    source.write_bytes(COURSE.source("ch03_ladder", "ladder").read_bytes())
    shutil.copy(COURSE.config_file, tmp_path / "exercises")
    (tmp_path / "appendix" / "exercises.md").write_text("# Exercises\n\n" + "\n".join(exercise_table.HEADER) + "\n")
    before = nbformat.read(str(source), as_version=4)
    number = max(int(m.group(1)) for c in before.cells if (m := re.match(r"## (\d+)\.", c.source)))
    assert new_question.main(["ch03_ladder", "wavelengths", "--root", str(tmp_path)]) == 0, "a question written passes"
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
    assert len(runpy.run_path(str(tmp_path / "tests" / "ch03" / "wrong_solutions" / "ch03_half_turns.py"))[
        "MISTAKES"]) == 2
    form = tmp_path / "tests" / "ch03" / "correct_solutions" / "another_form.py"
    assert new_question.main(["ch03_ladder", "whole_turns", "1", "--root", str(tmp_path)]) == 0
    assert answer_files(tmp_path / "tests", "correct", "ch03_half_turns") == [form], "one file a form, all questions"
    assert answer_files(tmp_path / "tests", "correct", "ch03_whole_turns") == [form]
    assert "half_turns" not in answer_source(form, "ch03_whole_turns")
    assert self_checks.main(["ch03_ladder", "--root", str(tmp_path)]) == 2, "nothing is stored while a TODO is left"
    where = f"ch03_ladder/ladder.ipynb, question {question.source.splitlines()[0][3:]}"
    assert Course.find(tmp_path / "exercises").unfinished()[:6] == [  # each TODO named, with its question
        f"{where}: cell ch03_text_half_turns", f"{where}: cell ch03_half_turns",
        f"{where}: tests/ch03/correct_solutions/another_form.py",
        f"{where}: tests/ch03/wrong_solutions/ch03_half_turns.py",
        f"{where}: cell ch03_half_turns_check", f"{where}: cell ch03_half_turns_tests"]
    assert release.main(["--course", str(tmp_path / "exercises")]) == 2, "nor the student versions made"
    assert not (tmp_path / "exercises" / "release").exists()
    shutil.copytree(COURSE.root / "release" / "ch03_ladder", tmp_path / "submissions" / "ada" / "ch03_ladder")
    with pytest.raises(RuntimeError, match=r"(?s)refusing to grade: \d+ TODO.*: cell ch03_half_turns_tests"):
        grade_class(tmp_path / "submissions", tmp_path / "out", course=tmp_path / "exercises", sandboxed=False)
    assert not (tmp_path / "out" / "grades.csv").exists()
    Course.find(tmp_path / "exercises").refuse_unfinished("grade", ["ch04_rotation"])  # a draft elsewhere stops nothing
    assert new_question.main(["ch03_ladder", "half_turns", "--root", str(tmp_path)]) == 2, "nor checked"
    assert new_question.main(["ch03_ladder", "quarter_turns", "--root", str(tmp_path)]) == 2, "no such question"
    assert new_question.main(["ch03_ladder", "half_turns", "2", "--root", str(tmp_path)]) == 2
    assert new_question.main(["ch3", "other", "2", "--root", str(tmp_path)]) == 2


def test_instructor_guide_states_the_grader_defaults():
    from posenc_grader import Limits

    guide, limits = (ROOT / "appendix" / "instructor_guide.md").read_text(encoding="utf-8"), Limits()
    for option, value in [("--cell-timeout", limits.cell_timeout), ("--notebook-timeout", limits.notebook_timeout),
                          ("--memory-mb", limits.memory_mb), ("--max-file-mb", limits.max_file_mb)]:
        assert re.search(rf"`{option}` \([^)]*default {value}\)", guide), option
    assert f"cut to {limits.max_output_chars:,} characters" in guide


# ---------------------------------------------------------------- each question with each of its answers


@pytest.mark.parametrize("key,answer", [(key, answer) for key, nb in SOURCES.items()
                                        for answer in samples.autograded_answers(nb)])
def test_question_passes_its_checks_with_each_of_its_answers(key, answer):
    """Its cells in order (the self-check ungraded, the test cell all hidden tests), the model answer and the other
    correct forms passing the self-check and the hidden tests, each listed mistake failing both and named by the
    self-check, every hidden assertion with a message (``tools/self_checks.py``)."""
    broken = self_checks.problems(ROOT, SOURCES[key], answer)
    assert not broken, f"{answer}:\n" + "\n".join(broken)


def test_the_checks_of_a_question_find_each_rule_broken(tmp_path):
    """A mistake given as a correct form, one mistake listed and it no mistake, a hidden assertion left silent, a
    self-check that is graded, points that the heading does not say, and a mistake whose change no longer applies to
    the model answer."""
    chapter = shutil.copytree(TESTS / "ch04", tmp_path / "tests" / "ch04")
    (chapter / "correct_solutions" / "clockwise.py").write_text(CLOCKWISE)
    mistakes = chapter / "wrong_solutions" / "ch04_rotation.py"
    mistakes.write_text('MISTAKES = {"unchanged": ("it is right. Hint: none.", {"c, s =": "c, s ="})}\n')
    nb = copy.deepcopy(SOURCES["ch04_rotation/rotation"])
    cell(nb, "ch04_rotation_check").metadata.nbgrader.grade = True
    tests = cell(nb, "ch04_rotation_tests")
    tests.metadata.nbgrader.points = 2
    tests.source = re.sub(r"(\n\s*assert [^\n]*), (\"[^\n]*\"|'[^\n]*')\n", r"\1\n", tests.source, count=1)
    broken = "\n".join(self_checks.problems(tmp_path, nb, "ch04_rotation"))
    assert re.search(r"ch04_rotation_tests, line \d+: give the assertion a message", broken), broken
    assert "ch04_rotation_check: a self-check is locked and not graded" in broken
    assert "the question's heading says 3 points, its test cell ch04_rotation_tests gives 2: make them agree" in broken
    assert "correct_solutions/clockwise.py fails its self-check (SelfCheckFailed" in broken
    assert "correct_solutions/clockwise.py fails the hidden tests" in broken
    assert "wrong_solutions/ch04_rotation.py lists 1 mistakes: list at least two" in broken
    assert "wrong_solutions/ch04_rotation.py, mistake unchanged, is not named by the self-check (pass" in broken
    assert "wrong_solutions/ch04_rotation.py, mistake unchanged, passes the hidden tests" in broken
    mistakes.write_text('MISTAKES = {"stale": ("it is stale. Hint: none.", {"c, s = np.cos(a)": ""})}\n')
    with pytest.raises(ValueError, match=r"ch04_rotation.py, mistake stale: 'c, s = np.cos\(a\)' is not in the model"):
        self_checks.problems(tmp_path, nb, "ch04_rotation")


def test_each_form_of_correct_answers_says_how_it_differs_and_answers_only_questions_of_its_assignment():
    """One file a form (tests/chNN/correct_solutions/<form>.py), kept where it takes a path the model answer does not:
    a kind the self-check and the wire must accept, or a formula the hidden tests must not reject."""
    forms = sorted(TESTS.glob("ch[0-9][0-9]/correct_solutions/*.py"))
    kinds = {"loops", "float32", "torch", "numpy_scalar", "zero_d", "matrix", "error_subclass"}
    assert kinds <= {form.stem for form in forms}, "the kinds of answer the wire and the self-checks must accept"
    functions = {key[:4]: set(hidden.answer_functions(nb)) for key, nb in SOURCES.items()}
    for path in forms:
        tree = ast.parse(path.read_text())
        assert ast.get_docstring(tree), f"{path} should say how its form differs in its docstring"
        stray = [node.name for node in tree.body if isinstance(node, ast.FunctionDef)
                 and not node.name.startswith("_") and node.name not in functions[path.parts[-3]]]
        assert not stray, f"{path}: no question of its assignment asks for {stray} (name a helper _{stray[0]})"


@pytest.mark.parametrize("key", sorted(SOURCES))
def test_an_answer_that_reads_the_graders_values_fails_the_hidden_tests(key):
    """The cheats of tests/cheats.py silence the self-checks and try to read the expected values: a student answers
    every question of the notebook with one cheat, in a process apart from the hidden tests, as a kernel is."""
    nb, passed = SOURCES[key], []
    names = hidden.answer_functions(nb)
    with kernel(self_checks.setup_cells(nb), {kind: cheats.cheat(kind, names) for kind in cheats.RETURNS}) as call:
        for kind, answer in [(kind, answer) for kind in cheats.RETURNS for answer in samples.autograded_answers(nb)]:
            failure = hidden.run(hidden.split(cell(nb, f"{answer}_tests").source)[1], names,
                                 lambda name, request, kind=kind: call(kind, name, request))
            if failure is None or kind in ("frames", "inspect", "gc", "globals") and not re.search(
                    r"returned an? Anything, expected", failure.message):
                passed.append(f"{kind} in {answer}: {failure}")
    assert not passed, f"cheats not caught as they must be: {passed}"


def test_self_check_failure_shows_as_one_line_in_jupyter():
    error = SelfCheckFailed("rotation: it turns clockwise.")
    assert error._render_traceback_() == ["\N{BALLOT X} rotation: it turns clockwise."]
    assert isinstance(error, AssertionError)


def test_the_rule_of_the_self_checks_imports_nothing_beyond_numpy():
    """So that a notebook opened alone on Colab can run it. (That every question's self-check runs with the
    set-up cells, which import it, is test_question_passes_its_checks_with_each_of_its_answers.)"""
    import posenc.book.answers

    imported = {node.names[0].name if isinstance(node, ast.Import) else node.module
                for node in ast.walk(ast.parse(Path(posenc.book.answers.__file__).read_text()))
                if isinstance(node, (ast.Import, ast.ImportFrom))}
    assert {name.split(".")[0] for name in imported} <= {"__future__", "base64", "builtins", "collections", "json",
                                                         "typing", "warnings", "zlib", "numpy"}


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
