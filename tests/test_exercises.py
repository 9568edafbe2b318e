"""The exercise course: its structure, its self-checks, and its tests against right and wrong answers.

The fast tests here run the notebooks' cells directly in this process (set-up, then an answer, then its
test cell with the hidden tests included). The slow ones use nbgrader itself: the source notebooks must
validate with full marks, and the committed student versions must be what nbgrader generates today.
``tests/test_grading.py`` grades whole notebooks, right, blank, wrong and broken, through the pipeline.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import io
import json
import pkgutil
import re
from pathlib import Path

import cheats
import nbformat
import pytest

from posenc.book import selfcheck
from posenc.book.selfcheck.checking import SelfCheckFailed
from posenc_grader import samples
from posenc_grader.course import HIDDEN_TESTS as HIDDEN
from posenc_grader.course import Course, nbgrader_meta

ROOT = Path(__file__).resolve().parent.parent
COURSE = Course.find(ROOT / "exercises")
WRONG = Path(__file__).resolve().parent / "wrong_solutions"
CORRECT = Path(__file__).resolve().parent / "correct_solutions"
SELF_CHECKS = [importlib.import_module(module.name)  # posenc.book.selfcheck.ch01, ... and their shared checking
               for module in pkgutil.iter_modules(selfcheck.__path__, selfcheck.__name__ + ".")]


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
    return sorted((WRONG / answer).glob("*.py"))


def correct_solutions(answer: str) -> list[Path]:
    return sorted((CORRECT / answer).glob("*.py"))


def run_cells(nb, answer: str, answer_source: str) -> tuple[str, str]:
    """Run ``nb``'s set-up cells, ``answer_source`` as the answer, then its test cell (hidden tests included).

    Returns ("pass" or the exception's name, what the test cell printed or raised).
    """
    namespace: dict = {}
    for c in nb.cells:
        meta = nbgrader_meta(c)
        if c.cell_type == "code" and meta.get("locked") and not meta.get("grade"):
            exec(c.source, namespace)
    exec(answer_source, namespace)
    tests = "\n".join(line for line in cell(nb, f"{answer}_tests").source.split("\n") if line.strip() not in HIDDEN)
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(tests, namespace)
    except Exception as error:  # whatever the answer makes the tests raise
        return type(error).__name__, str(error)
    return "pass", out.getvalue()


# ---------------------------------------------------------------- structure of the course


def test_course_has_one_assignment_per_chapter():
    chapters = sorted(p.name[:2] for p in (ROOT / "chapters").glob("[0-9][0-9]_*.ipynb"))
    assert [a[2:4] for a in COURSE.assignments()] == chapters
    assert all(len(notebooks) == 1 for notebooks in COURSE.assignments().values())


def test_course_is_worth_at_least_sixty_points():
    points = sum(nbgrader_meta(c).get("points", 0) for nb in SOURCES.values() for c in nb.cells
                 if nbgrader_meta(c).get("grade"))
    autograded = sum(nbgrader_meta(c).get("points", 0) for nb in SOURCES.values() for c in nb.cells
                     if nbgrader_meta(c).get("grade") and c.cell_type == "code")
    assert points >= 60
    assert autograded >= 60


def test_grade_ids_are_unique_across_the_course_and_name_their_chapter():
    ids = [nbgrader_meta(c)["grade_id"] for nb in SOURCES.values() for c in nb.cells if nbgrader_meta(c)]
    assert len(ids) == len(set(ids))
    for key, nb in SOURCES.items():
        assert all(nbgrader_meta(c)["grade_id"].startswith(key[:4]) for c in nb.cells if nbgrader_meta(c))


@pytest.mark.parametrize("key", sorted(SOURCES))
def test_source_notebook_is_stored_without_outputs_and_starts_with_the_colab_cell(key):
    chapter_one = nbformat.read(str(ROOT / "chapters" / "01_attention_sees_a_set.ipynb"), as_version=4)
    colab = next(c for c in chapter_one.cells if c.cell_type == "code").source
    nb = SOURCES[key]
    assert not any(c.get("outputs") for c in nb.cells if c.cell_type == "code")
    assert next(c for c in nb.cells if c.cell_type == "code").source == colab


@pytest.mark.parametrize("key,answer", answers())
def test_every_answer_has_a_self_checked_test_cell_with_hidden_tests(key, answer):
    tests = cell(SOURCES[key], f"{answer}_tests")
    visible, _, hidden = tests.source.partition(HIDDEN[0])
    assert nbgrader_meta(tests)["grade"] and nbgrader_meta(tests)["locked"] and nbgrader_meta(tests)["points"] > 0
    assert re.search(r"selfcheck\.check_\w+\(", visible)
    assert HIDDEN[1] in hidden


def _loaded_names(tree: ast.AST) -> set[str]:
    """Names a piece of code reads but does not bind itself (globals and builtins it relies on)."""
    bound, loaded = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (loaded if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.Lambda)):
            bound.update(a.arg for a in node.args.args)
            if isinstance(node, ast.FunctionDef):
                bound.add(node.name)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return loaded - bound


@pytest.mark.parametrize("key,answer", answers())
def test_hidden_tests_use_nothing_a_student_cell_could_replace(key, answer):
    """Only the function under test, ``np.array`` (whose result the tests check entry by entry) and
    exception classes come from outside the hidden block: no numpy function, no math, no builtin, no posenc."""
    hidden = cell(SOURCES[key], f"{answer}_tests").source.split(HIDDEN[0])[1].split(HIDDEN[1])[0]
    defined = {node.name for node in ast.walk(ast.parse(cell(SOURCES[key], answer).source))
               if isinstance(node, ast.FunctionDef)}
    outside = _loaded_names(ast.parse(hidden)) - defined - {"_hidden_tests"}
    assert outside <= {"np", "ValueError"}, f"hidden tests of {answer} rely on {sorted(outside)}"
    np_uses = {node.attr for node in ast.walk(ast.parse(hidden))
               if isinstance(node, ast.Attribute) and getattr(node.value, "id", None) == "np"}
    assert np_uses <= {"array"}


@pytest.mark.parametrize("key,answer", answers())
def test_every_answer_has_at_least_two_plausible_wrong_solutions(key, answer):
    wrong = wrong_solutions(answer)
    assert len(wrong) >= 2
    for path in wrong:
        assert ast.get_docstring(ast.parse(path.read_text())), f"{path} should say what is wrong in its docstring"


def test_exercises_page_links_every_student_version_on_colab_and_binder_with_its_points():
    page = (ROOT / "appendix" / "exercises.md").read_text(encoding="utf-8")
    for key, nb in SOURCES.items():
        graded = [c for c in nb.cells if nbgrader_meta(c).get("grade")]
        auto = sum(nbgrader_meta(c)["points"] for c in graded if c.cell_type == "code")
        manual = sum(nbgrader_meta(c)["points"] for c in graded if c.cell_type == "markdown")
        row = next(line for line in page.splitlines() if f"/release/{key}.ipynb" in line)
        assert f"| {auto} + {manual} |" in row
        # the {colab} and {binder} roles (_ext/plain_edition.py) link the release tag; tests/test_plain_edition.py
        # checks the built links
        assert f"{{colab}}`exercises/release/{key}.ipynb`" in row
        assert f"{{binder}}`exercises/release/{key}.ipynb`" in row
        assert (COURSE.root / "release" / f"{key}.ipynb").is_file()


def test_instructor_guide_states_the_grader_defaults():
    from posenc_grader import Limits

    guide, limits = (ROOT / "appendix" / "instructor_guide.md").read_text(encoding="utf-8"), Limits()
    for option, value in [("--cell-timeout", limits.cell_timeout), ("--notebook-timeout", limits.notebook_timeout),
                          ("--memory-mb", limits.memory_mb), ("--max-file-mb", limits.max_file_mb)]:
        assert re.search(rf"`{option}` \([^)]*default {value}\)", guide), option
    assert f"cut to {limits.max_output_chars:,} characters" in guide


# ---------------------------------------------------------------- answers against tests, in this process


@pytest.mark.parametrize("key,answer", answers())
def test_model_answer_passes_its_self_check_and_hidden_tests(key, answer):
    outcome, output = run_cells(SOURCES[key], answer, samples.solutions(SOURCES[key])[answer])
    assert outcome == "pass", output
    assert "\N{CHECK MARK}" in output


@pytest.mark.parametrize("key,answer,wrong", [(k, a, w) for k, a in answers() for w in wrong_solutions(a)],
                         ids=lambda value: value.stem if isinstance(value, Path) else str(value))
def test_wrong_answer_fails_both_self_check_and_hidden_tests(key, answer, wrong):
    nb = SOURCES[key]
    outcome, message = run_cells(nb, answer, wrong.read_text())
    assert outcome == "SelfCheckFailed", message
    assert " Hint: " in message
    hidden_only = nbformat.from_dict(json.loads(json.dumps(nb)))
    tests = cell(hidden_only, f"{answer}_tests")
    tests.source = re.sub(r"^selfcheck\.check_\w+\(\w+\)$", "", tests.source, flags=re.M)
    outcome, message = run_cells(hidden_only, answer, wrong.read_text())
    assert outcome != "pass", message


@pytest.mark.parametrize("key,answer", answers())
def test_self_check_of_an_unwritten_answer_says_so(key, answer):
    stub = "\n".join(line for line in cell(SOURCES[key], answer).source.split("\n")
                     if not line.strip().startswith("###") and "return" not in line)
    body = stub.rstrip() + "\n    raise NotImplementedError()\n"
    outcome, message = run_cells(SOURCES[key], answer, body)
    assert outcome == "SelfCheckFailed"
    assert "not written yet" in message


def test_self_check_hints_name_the_mistake_without_numbers_from_the_answer():
    """A hint may show the inputs (shapes and short numbers) but never a precise expected value."""
    for key, answer in answers():
        for wrong in wrong_solutions(answer):
            _, message = run_cells(SOURCES[key], answer, wrong.read_text())
            assert not re.search(r"\d\.\d{5,}|\[\[", message), f"{wrong}: {message}"


CORPUS = [(k, a, path) for k, a in answers() for path in correct_solutions(a)]


def test_the_corpus_of_other_correct_answers_covers_every_answer_and_the_usual_forms():
    assert {a for _, a, _ in CORPUS} == {a for _, a in answers()}
    forms = {path.stem for _, _, path in CORPUS}
    assert {"loops", "float32", "torch", "numpy_scalar", "zero_d", "matrix", "scipy", "einsum", "complex"} <= forms
    for _, _, path in CORPUS:
        assert ast.get_docstring(ast.parse(path.read_text())), f"{path} should say how it differs in its docstring"


@pytest.mark.parametrize("key,answer,correct", CORPUS,
                         ids=lambda value: value.stem if isinstance(value, Path) else str(value))
def test_a_correct_answer_written_differently_passes_self_check_and_hidden_tests(key, answer, correct):
    outcome, output = run_cells(SOURCES[key], answer, correct.read_text())
    assert outcome == "pass", output
    assert "\N{CHECK MARK}" in output


@pytest.mark.parametrize("kind", sorted(cheats.RETURNS))
@pytest.mark.parametrize("key,answer", answers())
def test_an_answer_that_reads_the_graders_values_fails_the_hidden_tests(key, answer, kind):
    """The cheats of tests/cheats.py silence the self-checks and try to read the expected values."""
    saved = {module: dict(vars(module)) for module in SELF_CHECKS}
    try:
        source = cheats.cheat(kind, cheats.names(samples.solutions(SOURCES[key])[answer]))
        outcome, message = run_cells(SOURCES[key], answer, source)
    finally:
        for module, names in saved.items():
            for name, value in names.items():
                setattr(module, name, value)
    assert outcome != "pass", f"{kind} passed the hidden tests of {answer}"
    if kind in ("frames", "inspect", "gc", "globals"):
        assert re.search(r"returned an? Anything, expected", message), message


def test_hidden_tests_hold_the_current_shared_rule_of_posenc_answers():
    from posenc_grader.release import refresh_shared_rule, shared_rule

    assert refresh_shared_rule(COURSE, write=False) == [], "run `make exercises`"
    for key, answer in answers():
        assert shared_rule() in cell(SOURCES[key], f"{answer}_tests").source


def test_self_check_failure_shows_as_one_line_in_jupyter():
    error = SelfCheckFailed("rotation: it turns clockwise.")
    assert error._render_traceback_() == ["\N{BALLOT X} rotation: it turns clockwise."]
    assert isinstance(error, AssertionError)


def imported_modules(module) -> set[str]:
    """The full names of the modules ``module``'s source imports (relative imports resolved)."""
    names = set()
    for node in ast.walk(ast.parse(Path(module.__file__).read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            package = module.__name__.rsplit(".", node.level)[0] + "." if node.level else ""
            names.add(package + node.module)
    return names


def test_self_checks_need_only_numpy_and_posenc():
    imported = set().union(*(imported_modules(module) for module in SELF_CHECKS))
    assert {name.split(".")[0] for name in imported} <= {"__future__", "collections", "warnings", "zlib", "numpy",
                                                         "posenc"}
    assert {name for name in imported if name.startswith("posenc.")} <= {
        *(f"posenc.{idea}" for idea in ("alibi", "attention", "geometry", "rotary", "rotary_axes", "scores",
                                        "sinusoidal")),
        "posenc.book.answers", "posenc.book.selfcheck.checking"}
    assert len(SELF_CHECKS) == 11  # ch01 ... ch10 and checking


# ---------------------------------------------------------------- with nbgrader itself


@pytest.mark.grader
def test_committed_student_versions_are_what_nbgrader_generates(prepared_course):
    from posenc_grader.release import stale

    assert stale(COURSE, prepared_course / "course") == []


@pytest.mark.grader
@pytest.mark.parametrize("key", sorted(SOURCES))
def test_source_notebook_validates_with_full_marks(key):
    from nbgrader.validator import Validator
    from traitlets.config import Config

    config = Config()
    config.Execute.timeout = 60
    assert Validator(config=config).validate(str(COURSE.root / "source" / f"{key}.ipynb")) == {}
