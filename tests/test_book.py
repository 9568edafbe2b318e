"""The book's build contract: strict, never stale, the source tree left as it was. The build tests build small
scratch books with the project's own configuration and build script (the one `make book` runs).
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
from build_book import sources_fingerprint
from conftest import CHAPTERS, ROOT
from course_links import Course

BUILD = [sys.executable, str(ROOT / "tools" / "build_book.py")]


CHAPTER = "chapters/01_scratch.ipynb"  # its plain edition: notebooks/chapters/01_scratch.ipynb


def scratch_book(root: Path, notebook_cells: list, page: str) -> Path:
    """A minimal book with the project's configuration (and the folders it names), one markdown page and one
    chapter, ``CHAPTER``."""
    root.mkdir(parents=True, exist_ok=True)
    for name in ("_config.yml", "references.bib", "pyproject.toml", ".gitignore"):  # pyproject: the release (_ext)
        shutil.copy(ROOT / name, root / name)
    for folder in ("_static", "_ext", "_templates", "tools"):
        shutil.copytree(ROOT / folder, root / folder, ignore=shutil.ignore_patterns("__pycache__"))
    toc = f"format: jb-book\nroot: intro\nchapters:\n  - file: page\n  - file: {CHAPTER.removesuffix('.ipynb')}\n"
    (root / "_toc.yml").write_text(toc)
    (root / "intro.md").write_text("# Scratch\n\nA scratch book.\n")
    (root / "page.md").write_text(page)
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Notebook"), *notebook_cells])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    (root / CHAPTER).parent.mkdir()
    nbformat.write(notebook, root / CHAPTER)
    return root


def build(book: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*BUILD, str(book)], capture_output=True, text=True, timeout=600)


def page_text(book: Path, name: str) -> str:
    return (book / "_build" / "html" / f"{name}.html").read_text(encoding="utf-8")


@pytest.mark.build
def test_the_build_fails_on_a_failing_cell_a_broken_reference_and_an_unknown_citation_and_names_each(tmp_path):
    """One scratch book with all three (``--keep-going`` reports every one, and ``-W`` makes each an error)."""
    page = "# A page\n\nSee {ref}`no-such-label`. As shown by {cite}`nobody2099`.\n"
    result = build(scratch_book(tmp_path / "book", [nbformat.v4.new_code_cell("1 / 0")], page))
    assert result.returncode != 0 and "build_book: FAILED" in result.stderr, result.stdout[-2000:]
    log = result.stdout + result.stderr
    for what, named in (("the failing cell", "ZeroDivisionError"), ("the broken reference", "no-such-label"),
                        ("the unknown citation", "nobody2099")):
        assert named in log, f"the build did not name {what}:\n{log[-3000:]}"


SOURCE = "src/posenc/value.txt"  # a file of the book's package that the chapter reads: its outputs depend on it
CODE = f"import time\nprint(open('../{SOURCE}').read(), 'executed-at', time.time_ns())"


@pytest.fixture(scope="module")
def edition_book(tmp_path_factory) -> Path:
    """A scratch book with one chapter (a page of the plain edition, reading a file of its own ``src/posenc``) and a
    page linking the chapter's notebook, as the exercises page links the student notebooks, committed, then built."""
    links = f"# A page\n\n{{colab}}`{CHAPTER}` {{binder}}`{CHAPTER}`\n"
    book = scratch_book(tmp_path_factory.mktemp("edition") / "book", [nbformat.v4.new_code_cell(CODE)], links)
    (book / SOURCE).parent.mkdir(parents=True)
    (book / SOURCE).write_text("first-version")
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "scratch"]):
        subprocess.run(["git", "-C", str(book), "-c", "user.name=test", "-c", "user.email=test@example.org",
                        *command], check=True)
    result = build(book)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return book


@pytest.mark.build
def test_build_writes_the_plain_edition_under_the_build_folder_and_leaves_the_source_tree_clean(edition_book):
    """(What the edition holds, glued values and code cells: tests/test_plain_edition.py, on the book's build.)"""
    edition = edition_book / "_build" / "notebooks" / "chapters" / "01_scratch.ipynb"
    assert edition.is_file(), "the build wrote no plain edition of the chapter"
    status = subprocess.run(["git", "-C", str(edition_book), "status", "--porcelain", "--untracked-files=all"],
                            check=True, capture_output=True, text=True).stdout
    assert status == "", f"the build changed the source tree:\n{status}"


@pytest.mark.build
def test_colab_and_binder_roles_open_a_committed_notebook_at_the_release_tag(edition_book):
    """(The launch buttons open the plain edition on the edition branch: tests/test_site.py; the links' form:
    tests/test_course_links.py.)"""
    html = page_text(edition_book, "page").replace("&amp;", "&")
    course = Course.of(ROOT)
    assert f'href="{course.colab(CHAPTER)}"' in html and f'href="{course.binder(CHAPTER)}"' in html


@pytest.mark.build
def test_execution_cache_never_serves_outputs_of_older_sources(edition_book, tmp_path):
    """The cache follows the files of the package the chapters use (src/posenc; here in a copy of the built book);
    what leaves it alone (compiled files) is the next test's."""
    book = shutil.copytree(edition_book, tmp_path / "book")

    def executed() -> str:
        return re.search(r"([a-z]+-version) executed-at (\d+)", page_text(book, "chapters/01_scratch")).group(0)

    def rebuilt() -> str:
        result = build(book)
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
        return executed()

    first = executed()
    assert first.startswith("first-version")
    assert rebuilt() == first, "an unchanged book must be served from the execution cache"
    (book / SOURCE).write_text("second-version")
    assert rebuilt().startswith("second-version")


def test_the_cache_fingerprint_follows_the_packages_modules_and_data_files_only(tmp_path):
    """Not the compiled files that importing it writes."""
    package = tmp_path / "posenc"
    (package / "explorers").mkdir(parents=True)
    (package / "__init__.py").write_text("VALUE = 1\n")
    (package / "explorers" / "rope.js").write_text("export default {};\n")
    seen = {sources_fingerprint(package)}
    for name, text in [("__init__.py", "VALUE = 2\n"), ("explorers/rope.js", "export default {render() {}};\n"),
                       ("explorers/new.py", "")]:
        (package / name).write_text(text)
        seen.add(sources_fingerprint(package))
    assert len(seen) == 4, "a change of a module or of a data file must change the fingerprint"
    before = sources_fingerprint(package)
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"\0")
    assert sources_fingerprint(package) == before


@pytest.mark.parametrize("notebook", CHAPTERS, ids=lambda p: p.name)
def test_chapters_are_stored_without_outputs(notebook):
    """(Their first code cell is the install cell: tests/test_course_links.py.)"""
    code = [c for c in json.loads(notebook.read_text(encoding="utf-8"))["cells"] if c["cell_type"] == "code"]
    assert all(not c.get("outputs") and c.get("execution_count") is None for c in code), "strip the outputs"


@pytest.mark.parametrize("notebook", CHAPTERS, ids=lambda p: p.name)
def test_every_verifying_cell_is_on_its_page_with_its_output(site, notebook):
    """The cells that verify a theorem (tagged verifies-<label>) reach the reader, and show what they printed."""
    tagged = [c for c in nbformat.read(str(notebook), as_version=4).cells
              if any(t.startswith("verifies-") for t in c.metadata.get("tags", []))]
    html = (site / "chapters" / f"{notebook.stem}.html").read_text(encoding="utf-8")
    cells = re.findall(r'<div class="cell tag_verifies-.*?(?=<div class="cell |<section|</section>)', html, re.S)
    assert len(cells) == len(tagged)
    assert [c[:80] for c in cells if "cell_output" not in c] == []
