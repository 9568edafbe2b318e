"""The book's build contract: strict, never stale, every chapter present and runnable in Colab.

The strictness and cache tests build small scratch books with the project's own configuration and
its own build script (the one `make book` runs), so they prove what `make book` and `make test` do.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
import yaml
from conftest import ROOT

BUILD = [sys.executable, str(ROOT / "tools" / "build_book.py")]
COLAB_CELL_MARK = "installs the book's package in Colab or Binder when it is missing"


def toc_files() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    return [entry["file"] for part in toc["parts"] for entry in part["chapters"]]


def chapter_notebooks() -> list[Path]:
    return sorted((ROOT / "chapters").glob("*.ipynb"))


def scratch_book(root: Path, notebook_cells: list, page: str = "# A page\n\nText.\n") -> Path:
    """A minimal book with the project's configuration (and the folders it names), one markdown page
    and one notebook."""
    root.mkdir(parents=True, exist_ok=True)
    for name in ("_config.yml", "references.bib", "pyproject.toml"):  # pyproject.toml: the release (_ext)
        shutil.copy(ROOT / name, root / name)
    for folder in ("_static", "_ext", "_templates", "tools"):
        if (ROOT / folder).is_dir():
            shutil.copytree(ROOT / folder, root / folder, ignore=shutil.ignore_patterns("__pycache__"))
    (root / "_toc.yml").write_text("format: jb-book\nroot: intro\nchapters:\n  - file: page\n  - file: notebook\n")
    (root / "intro.md").write_text("# Scratch\n\nA scratch book.\n")
    (root / "page.md").write_text(page)
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Notebook"), *notebook_cells])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(notebook, root / "notebook.ipynb")
    return root


def build(book: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*BUILD, str(book)], capture_output=True, text=True, timeout=600)


def page_text(book: Path, name: str) -> str:
    return (book / "_build" / "html" / f"{name}.html").read_text(encoding="utf-8")


@pytest.mark.build
def test_a_clean_scratch_book_builds_and_glues_numbers_into_the_prose(tmp_path):
    cells = [nbformat.v4.new_code_cell("from posenc.glue import glue\nglue('answer', 6 * 7)\nprint(6 * 9)"),
             nbformat.v4.new_markdown_cell("The answer is {glue:text}`answer`.")]
    result = build(scratch_book(tmp_path / "book", cells))
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    html = page_text(tmp_path / "book", "notebook")
    assert "54" in html
    assert re.search(r"The answer is <span[^>]*>42</span>", html)


@pytest.mark.build
@pytest.mark.parametrize(
    ("what", "cells", "page"),
    [
        ("a failing cell", [nbformat.v4.new_code_cell("1 / 0")], "# A page\n"),
        ("a broken reference", [], "# A page\n\nSee {ref}`no-such-label`.\n"),
        ("a warning (unknown citation)", [], "# A page\n\nAs shown by {cite}`nobody2099`.\n"),
    ],
)
def test_the_build_fails_on(tmp_path, what, cells, page):
    result = build(scratch_book(tmp_path / "book", cells, page))
    assert result.returncode != 0, f"the build succeeded despite {what}:\n{result.stdout[-2000:]}"
    assert "build_book: FAILED" in result.stderr


@pytest.mark.build
def test_execution_cache_never_serves_outputs_of_older_sources(tmp_path):
    book = tmp_path / "book"
    package = book / "src" / "scratchpkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text('VALUE = "first-version"\n')
    code = (f"import sys, time\nsys.path.insert(0, {str(book / 'src')!r})\nimport scratchpkg\n"
            "print(scratchpkg.VALUE, 'executed-at', time.time_ns())")
    scratch_book(book, [nbformat.v4.new_code_cell(code)])

    def build_and_read() -> str:
        result = build(book)
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
        return re.search(r"([a-z]+-version) executed-at (\d+)", page_text(book, "notebook")).group(0)

    first = build_and_read()
    assert first.startswith("first-version")
    assert build_and_read() == first, "an unchanged book should be served from the execution cache"
    (package / "__init__.py").write_text('VALUE = "second-version"\n')
    assert build_and_read().startswith("second-version")


def test_every_toc_entry_exists_and_every_chapter_is_listed():
    for entry in toc_files():
        assert any((ROOT / f"{entry}{suffix}").is_file() for suffix in (".md", ".ipynb")), entry
    listed = {Path(entry).name for entry in toc_files()}
    assert {nb.stem for nb in chapter_notebooks()} <= listed
    assert len(chapter_notebooks()) == 10


@pytest.mark.parametrize("notebook", chapter_notebooks(), ids=lambda p: p.name)
def test_chapters_are_stored_without_outputs_and_start_with_the_colab_cell(notebook):
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    code = [c for c in cells if c["cell_type"] == "code"]
    assert all(not c.get("outputs") and c.get("execution_count") is None for c in code), "strip the outputs"
    assert code and COLAB_CELL_MARK in "".join(code[0]["source"]), "the first code cell must be the Colab set-up cell"


def test_chapter_one_shows_its_checks_and_figure(site):
    html = (site / "chapters" / "01_attention_sees_a_set.html").read_text(encoding="utf-8")
    assert html.count('class="claim-check"') >= 2
    assert re.search(r'<img[^>]+alt="Two heatmaps', html)
    assert "&#10003; holds" in html or "✓ holds" in html
