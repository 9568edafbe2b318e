"""The nbgrader course in ``exercises/``: its assignments, its configuration, and its generated copies.

The course is an ordinary nbgrader course directory (``nbgrader_config.py``, ``source/<assignment>/``,
``release/<assignment>/``). Grading needs a *prepared* copy of it: the student versions and a gradebook
that knows every cell, both made by ``nbgrader generate_assignment``. :func:`prepare` makes one and keeps
it until the sources or the configuration change.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import shutil
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

# Where the course is looked for when none is given: the current folder's exercises/ (make grade runs from the
# repository), then the one next to this package's sources (an editable install).
DEFAULT_ROOTS = (Path("exercises"), Path(__file__).resolve().parents[3] / "exercises")


TODO = re.compile(r"\bTODO\b")  # what `make new-question`'s templates (tools/new_question.py) leave for the author
ANSWER_KINDS = ("correct", "wrong")  # the other answers of a question, beside the course: see answer_files
SOLUTION = ("### BEGIN SOLUTION", "### END SOLUTION")          # model answer, replaced in the student version
HIDDEN_TESTS = ("### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS")  # removed from the student version


def answer_files(tests: Path, kind: str, answer: str) -> list[Path]:
    """The other answers of ``kind`` to the question ``answer`` (``ch03_wavelengths``), in the folder of the chapter's
    tests. ``"wrong"``: the file of its listed mistakes, ``tests/ch03/wrong_solutions/ch03_wavelengths.py`` (see
    :func:`posenc_grader.samples.mistakes`). ``"correct"``: the forms ``tests/ch03/correct_solutions/<form>.py``
    (loops, float32, ...) that define its function, ``wavelengths``; a form answers every question of its assignment
    that it applies to (see :func:`answer_source`)."""
    chapter, function = answer.split("_", 1)
    if kind == "wrong":
        return [path for path in [tests / chapter / "wrong_solutions" / f"{answer}.py"] if path.is_file()]
    return [path for path in sorted((tests / chapter / "correct_solutions").glob("*.py"))
            if any(isinstance(node, ast.FunctionDef) and node.name == function
                   for node in ast.parse(path.read_text(encoding="utf-8")).body)]


def answer_source(form: Path, answer: str) -> str:
    """The answer to ``answer`` in the correct form ``form``, as a student's cell would hold it: the file less its
    functions that answer other questions (the docstring, imports, classes and ``_private`` helpers stay)."""
    text, function = form.read_text(encoding="utf-8"), answer.split("_", 1)[1]
    body, dropped = ast.parse(text).body, set()
    for index, node in enumerate(body):  # a function goes with the lines between it and what comes before
        if isinstance(node, ast.FunctionDef) and node.name != function and not node.name.startswith("_"):
            dropped.update(range(body[index - 1].end_lineno if index else 0, node.end_lineno))
    return "".join(line for number, line in enumerate(text.splitlines(keepends=True)) if number not in dropped)


def nbgrader_meta(cell) -> dict:
    """A cell's nbgrader metadata (``{}`` for a plain cell, or when a student's editor mangled it)."""
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return meta if isinstance(meta, dict) else {}


def grade_id(cell) -> str | None:
    """A cell's nbgrader id, or None."""
    value = nbgrader_meta(cell).get("grade_id")
    return value if isinstance(value, str) else None


def ensure_tools_on_path() -> None:
    """nbgrader creates gradebooks by running the ``alembic`` command: make this interpreter's one findable."""
    bin_dir = str(Path(sys.executable).parent)
    if bin_dir not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = bin_dir + os.pathsep + os.environ.get("PATH", "")


@dataclass(frozen=True)
class Course:
    """An nbgrader course directory: ``root/nbgrader_config.py`` and ``root/source/<assignment>/*.ipynb``."""

    root: Path

    @classmethod
    def find(cls, root: Path | str | None = None) -> Course:
        """The course at ``root``, or at the first of :data:`DEFAULT_ROOTS` that holds one."""
        if root is None:
            root = next((r for r in DEFAULT_ROOTS if (r / "nbgrader_config.py").is_file()), DEFAULT_ROOTS[0])
        course = cls(Path(root).resolve())
        if not (course.root / "nbgrader_config.py").is_file() or not (course.root / "source").is_dir():
            raise FileNotFoundError(f"no nbgrader course at {course.root}: expected nbgrader_config.py and "
                                    "source/ there (pass --course DIR)")
        return course

    @property
    def config_file(self) -> Path:
        return self.root / "nbgrader_config.py"

    def source(self, assignment: str, notebook: str) -> Path:
        return self.root / "source" / assignment / f"{notebook}.ipynb"

    def assignments(self) -> dict[str, list[str]]:
        """``{assignment: [notebook names without .ipynb]}`` for every assignment in ``source/``."""
        return {a.name: sorted(p.stem for p in a.glob("*.ipynb"))
                for a in sorted((self.root / "source").iterdir()) if a.is_dir() and not a.name.startswith(".")}

    def config(self):
        """The course's own ``nbgrader_config.py``, loaded as a traitlets ``Config``."""
        from traitlets.config.loader import PyFileConfigLoader

        return PyFileConfigLoader(self.config_file.name, path=str(self.root)).load_config()

    def unfinished(self) -> list[str]:
        """Where a question still holds a TODO of ``make new-question``'s templates, one line each: in a cell of
        its source notebook, or in one of its other answers (:func:`answer_files`, beside the course)."""
        import nbformat

        found, tests = [], self.root.parent / "tests"
        for assignment, notebooks in self.assignments().items():
            for notebook in notebooks:
                question = "(before the first question)"
                for index, cell in enumerate(nbformat.read(str(self.source(assignment, notebook)), 4).cells):
                    if cell.cell_type == "markdown" and cell.source.startswith("## "):
                        question = cell.source.splitlines()[0][3:].strip()
                    where = f"{assignment}/{notebook}.ipynb, question {question}"
                    if TODO.search(cell.source):
                        found.append(f"{where}: cell {grade_id(cell) or f'number {index + 1}'}")
                    answer = grade_id(cell) if nbgrader_meta(cell).get("solution") else None
                    found += [f"{where}: {path.relative_to(self.root.parent)}" for kind in ANSWER_KINDS if answer
                              for path in answer_files(tests, kind, answer) if TODO.search(
                                  answer_source(path, answer) if kind == "correct" else path.read_text("utf-8"))]
        return found

    def refuse_unfinished(self, doing: str, assignments: Iterable[str] | None = None) -> None:
        """Raise ``RuntimeError`` naming every TODO left (:meth:`unfinished`) in ``assignments`` (by default all): no
        question ships unfinished, and a draft in another assignment stops nothing."""
        if found := [line for line in self.unfinished()
                     if assignments is None or line.partition("/")[0] in assignments]:
            raise RuntimeError(f"refusing to {doing}: {len(found)} TODO left by `make new-question` (replace each, "
                               "as the instructor guide says):\n  " + "\n  ".join(found))

    def fingerprint(self) -> str:
        """SHA-256 over the configuration and every source notebook: a prepared copy is valid while it holds."""
        digest = hashlib.sha256()
        for path in [self.config_file, *sorted((self.root / "source").rglob("*.ipynb"))]:
            digest.update(str(path.relative_to(self.root)).encode() + b"\0" + path.read_bytes() + b"\0")
        return digest.hexdigest()


def generate(course: Course, dest: Path) -> Path:
    """Run ``nbgrader generate_assignment`` for every assignment into the fresh course directory ``dest``.

    ``dest`` receives ``nbgrader_config.py``, ``source/``, ``release/`` and ``gradebook.db``. Raises
    ``RuntimeError`` with nbgrader's log when an assignment fails (nbgrader itself only logs it).
    """
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(course.root / "source", dest / "source")
    shutil.copy(course.config_file, dest / "nbgrader_config.py")
    generate_in(Course(dest), course.assignments())
    return dest


def generate_in(course: Course, assignments: Iterable[str]) -> None:
    """``nbgrader generate_assignment --force`` of each of ``assignments`` in ``course``'s own directory: the student
    versions, and the gradebook's cells made or updated (nbgrader refuses to add or remove a cell or a notebook of an
    assignment that has submissions). Raises ``RuntimeError`` with nbgrader's log when one fails (nbgrader itself
    only logs it)."""
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory

    ensure_tools_on_path()
    config = course.config()
    config.CourseDirectory.root = str(course.root)
    api = NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)
    for assignment in assignments:
        result = api.generate_assignment(assignment)
        if not result["success"]:
            raise RuntimeError(f"nbgrader generate_assignment {assignment} failed:\n{result.get('log', '')}\n"
                               f"{result.get('error', '')}")


def prepare(course: Course, cache: Path) -> Path:
    """A generated copy of ``course`` under ``cache``, made again only when the course has changed."""
    stamp, dest = cache / "fingerprint", cache / "course"
    fingerprint = course.fingerprint()
    if not (stamp.is_file() and stamp.read_text() == fingerprint and (dest / "gradebook.db").is_file()):
        generate(course, dest)
        stamp.write_text(fingerprint)
    return dest


def same_notebooks(a: Path, b: Path) -> bool:
    """Whether two notebook files hold the same JSON (formatting aside)."""
    return json.loads(a.read_text(encoding="utf-8")) == json.loads(b.read_text(encoding="utf-8"))
