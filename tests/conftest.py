"""Shared fixtures, the hypothesis profiles, and the marks that split the suite into two lanes.

A test that needs more than the test environment is marked by what it needs (the marks: pyproject.toml), so that
`make check` can leave it out; the marks of fixtures (``site``, ``pdf``, ``prepared_course``) are added here to
every test that uses them. `make test` runs each file's tests on one worker (``--dist loadfile``), so that a
module's expensive fixture (a graded class, a venv) is made once.
"""

from __future__ import annotations

import ast
import fcntl
import os
import re
import subprocess
from functools import cache
from importlib import metadata
from pathlib import Path

import nbformat
import pytest
import yaml
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
SITE = Path(os.environ.get("BOOK_HTML", ROOT / "_build" / "html"))  # BOOK_HTML: test a site built elsewhere
CHAPTERS = sorted((ROOT / "chapters").glob("*.ipynb"))
#: How far transformers' float32 ladder base ** (-2j/d) may be from ours, relative (float32 rounding, amplified by
#: ln(base) <= 13.2).
FLOAT32_LADDER = 2e-6

# "full" for `make test` by hand; "ci" in CI (CI=true): the same examples every run, so a failure reproduces;
# "fast" for `make check` (HYPOTHESIS_PROFILE=fast), the lane run on every edit.
settings.register_profile("full", max_examples=60, deadline=None)
settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True, print_blob=True)
settings.register_profile("fast", max_examples=10, deadline=None)
CI = os.environ.get("CI", "").lower() == "true"  # CI installs every tool: a missing one fails, not skips
PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if CI else "full")
settings.load_profile(PROFILE)


def need(condition: bool, message: str) -> None:
    """Skip with ``message`` unless ``condition``; with CI=true, fail instead."""
    if not condition:
        (pytest.fail if CI else pytest.skip)(message)


def toc_files() -> list[str]:
    """The documents of _toc.yml, in the book's order."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    return [entry["file"] for part in toc["parts"] for entry in part["chapters"]]


def repository_files() -> list[str]:
    """Tracked files and untracked ones that git does not ignore (what a commit would hold)."""
    names = subprocess.run(["git", "-C", str(ROOT), "ls-files", "--cached", "--others", "--exclude-standard"],
                           check=True, capture_output=True, text=True).stdout.splitlines()
    return sorted(name for name in names if (ROOT / name).is_file())


def page_setting(chapter: str, name: str):
    """The literal that the page ``chapters/<chapter>.ipynb`` assigns to ``name`` (exactly once): a published
    setting its cells compute with, for a test to compare with the code that publishes it."""
    cells = [cell.source for cell in nbformat.read(ROOT / "chapters" / f"{chapter}.ipynb", as_version=4).cells
             if cell.cell_type == "code"]
    values = [node.value for source in cells for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Assign)
              and any(isinstance(target, ast.Name) and target.id == name for target in node.targets)]
    assert len(values) == 1, f"{chapter} assigns {name} {len(values)} times"
    return ast.literal_eval(values[0])


@cache
def soup(page: Path):
    """A built page of the site, parsed once per test process: the tests of the site, the PDF and the plain edition
    read the same pages, and a chapter with its typeset math takes about half a second to parse."""
    from bs4 import BeautifulSoup

    return BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")


FIXTURE_NEEDS = {"site": "site", "pdf": "pdf", "prepared_course": "grader"}  # fixture -> the mark it brings


@pytest.fixture(scope="session")
def site() -> Path:
    """The built HTML site; a clear failure (not a skip) when the book was not built first."""
    if not (SITE / "index.html").is_file():
        pytest.fail(f"no built site at {SITE}: run `make book` first (`make test` does it for you)")
    return SITE


@pytest.fixture(scope="session")
def prepared_course() -> Path:
    """The exercise course as the grader prepares it (``nbgrader generate_assignment``, about 10 s), made once for
    every test and worker and kept in _build/ while neither the course nor nbgrader changes. Copy it to
    ``OUT/.grading/prepared`` and grading into ``OUT`` starts from it; its ``course/`` is what nbgrader made."""
    from posenc_grader.course import Course, prepare

    cache = ROOT / "_build" / f"grading-course-nbgrader-{metadata.version('nbgrader')}"
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / "lock", "w") as lock:  # one worker prepares, the others wait for it
        fcntl.flock(lock, fcntl.LOCK_EX)
        prepare(Course.find(ROOT / "exercises"), cache)
    return cache


SLOW_FIRST = ("grader", "venv", "browser", "build", "pdf", "site")  # the marks of what a test needs, slowest first


def pytest_collection_modifyitems(items):
    """Mark each test with what its fixtures need; then put the files with the slowest needs first, so that
    `pytest -n auto --dist loadfile` hands them out before the quick files that fill the gaps at the end."""
    rank = {}
    for item in items:
        for fixture, mark in FIXTURE_NEEDS.items():
            if fixture in item.fixturenames:
                item.add_marker(mark)
        needs = [SLOW_FIRST.index(mark.name) for mark in item.iter_markers() if mark.name in SLOW_FIRST]
        rank[item.path] = min([rank.get(item.path, len(SLOW_FIRST)), *needs])
    items.sort(key=lambda item: rank[item.path])  # stable: each file's tests keep their order


def hidden_lines(notebook) -> list[str]:
    """The lines of a notebook's hidden tests that say something (over 25 characters: no brackets, no blanks),
    for the tests that look for them where they must never appear."""
    from posenc_grader.hidden import split

    return [line.strip() for cell in notebook.cells for line in split(cell.source)[1].splitlines()
            if len(line.strip()) > 25]


def pins(path: Path) -> dict[str, str]:
    """``{normalized name: version}`` of the ``==`` pins of the requirements file at ``path``."""
    found = re.findall(r"^([A-Za-z0-9._-]+)==(\S+)", path.read_text(), re.MULTILINE)
    return {re.sub(r"[-_.]+", "-", name).lower(): version for name, version in found}
