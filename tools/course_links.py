#!/usr/bin/env python3
"""The course's one address and one release, and every link and install cell made from them.

The repository address is ``repository.url`` in ``_config.yml``; the release is ``version`` in
``pyproject.toml`` and its git tag is ``v<version>``. Everything a student follows out of the website is
derived here: the Colab and Binder links and the first code cell of every chapter and exercise notebook, which
installs the package of that release when it is missing. (The website's own address: _ext/site_address.py.)

Usage: ``python tools/course_links.py`` rewrites (``stale_files`` only compares, for the tests) the install cells
of ``chapters/``, ``appendix/explorers.ipynb`` and ``exercises/source/``, the hand-in cell of each exercise
notebook (how to save and hand in from Colab, Binder and Jupyter) and the release lines of ``CITATION.cff``.
``make book`` and ``make exercises`` run it, so a fork edits one line of ``_config.yml`` and rebuilds.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import nbformat
import tomllib
import yaml

ROOT = Path(__file__).resolve().parent.parent
INSTALL_MARK = "installs the book's package in Colab or Binder when it is missing"
COLAB = "https://colab.research.google.com/github"
BINDER = "https://mybinder.org/v2/gh"
EDITION_FOLDER = "notebooks"  # the plain edition: under _build/ after a build, at the root of the edition branch


@dataclass(frozen=True)
class Course:
    """Where the course lives: ``https://github.com/<owner>/<name>``, release ``version`` (tag ``v<version>``)."""

    url: str
    version: str

    @classmethod
    def of(cls, root: Path = ROOT) -> Course:
        """Read the address from ``root/_config.yml`` and the release from ``root/pyproject.toml``."""
        config = yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8"))
        url = str(config.get("repository", {}).get("url", "")).rstrip("/")
        if not re.fullmatch(r"https://github\.com/[\w.-]+/[\w.-]+", url):
            raise ValueError(f"_config.yml: repository.url must be https://github.com/<owner>/<name>, got {url!r}")
        project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
        return cls(url=url, version=project["version"])

    @property
    def slug(self) -> str:
        """``owner/name``."""
        return self.url.removeprefix("https://github.com/")

    @property
    def tag(self) -> str:
        """The git tag of this release, which the install cell and the links to committed files name."""
        return f"v{self.version}"

    @property
    def edition_branch(self) -> str:
        """The branch that ``make publish`` makes of the release and its plain edition (executed, so never
        committed to main: ``_ext/plain_edition.py``); no slash in its name: Colab's GitHub URLs split on slashes."""
        return f"plain-{self.tag}"

    def ref(self, path: str) -> str:
        """Where a launch link finds ``path``: the edition branch for a notebook of the plain edition
        (``notebooks/...``), the release tag for every committed file."""
        return self.edition_branch if path.startswith(f"{EDITION_FOLDER}/") else self.tag

    def install_target(self, url: str | None = None) -> str:
        """What the install cell's ``pip install`` gets: the package at this release's tag (from ``url``, a local
        clone in the tests, instead of the repository)."""
        return f"posenc @ git+{url or self.url}@{self.tag}"

    def colab(self, path: str) -> str:
        """Colab's link to the notebook ``path`` (relative to the repository root) at ``ref(path)``."""
        return f"{COLAB}/{self.slug}/blob/{self.ref(path)}/{path}"

    def binder(self, path: str) -> str:
        """mybinder.org's link: JupyterLab on the image of ``ref(path)``, opened at the notebook ``path``."""
        return f"{BINDER}/{self.slug}/{self.ref(path)}?urlpath={quote('lab/tree/' + path, safe='')}"


def install_cell_source(course: Course, url: str | None = None) -> str:
    """The first code cell of every chapter and exercise notebook: a no-op wherever ``posenc`` is importable."""
    return (
        f"# Runs anywhere: {INSTALL_MARK}; does nothing locally.\n"
        "import importlib, importlib.util, subprocess, sys\n"
        'if importlib.util.find_spec("posenc") is None:\n'
        '    subprocess.run([sys.executable, "-m", "pip", "install", "-q",\n'
        f"                    {json.dumps(course.install_target(url))}], check=True)\n"
        "    importlib.invalidate_caches()"
    )


HAND_IN = """**Saving and handing in.**
- *Colab:* *File → Save a copy in Drive* before you start; at the end, *File → Download → Download .ipynb*.
- *Binder:* *File → Download* often: a session left idle for about 10 minutes is culled, files and all.
- *Jupyter on your computer:* save (Ctrl+S) and hand in the `.ipynb` file from your folder."""


def hand_in_cell(notebook: nbformat.NotebookNode, path: Path) -> nbformat.NotebookNode:
    """The student notebook's hand-in cell (its nbgrader ``grade_id`` ends in ``_hand_in``), added after the
    cell that explains how the notebook works when it is missing."""
    for cell in notebook.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id", "").endswith("_hand_in"):
            return cell
    prefix = path.parent.name.split("_")[0]  # ch01_attention -> ch01
    cell = nbformat.v4.new_markdown_cell(HAND_IN, metadata={"nbgrader": {
        "grade": False, "grade_id": f"{prefix}_hand_in", "locked": True, "schema_version": 3, "solution": False}})
    cell.id = f"{prefix}-hand-in"
    after = next((i for i, c in enumerate(notebook.cells) if "How this notebook works" in c.source), 0)
    notebook.cells.insert(after + 1, cell)
    return cell


def notebooks_with_install_cell(root: Path = ROOT) -> list[Path]:
    """Every notebook whose first code cell is the install cell (the exercise releases are generated from
    ``exercises/source``)."""
    return [*sorted((root / "chapters").glob("*.ipynb")), root / "appendix" / "explorers.ipynb",
            *sorted((root / "exercises" / "source").glob("*/*.ipynb"))]


def first_code_cell(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    cell = next((c for c in notebook.cells if c.cell_type == "code"), None)
    if cell is None or INSTALL_MARK not in cell.source:
        raise ValueError(f"the first code cell must be the install cell (marked {INSTALL_MARK!r})")
    return cell


def citation_text(course: Course, text: str) -> str:
    """``CITATION.cff`` with its ``version`` and ``repository-code`` lines set to this release."""
    text = re.sub(r"(?m)^version: .*$", f'version: "{course.version}"', text)
    return re.sub(r"(?m)^repository-code: .*$", f'repository-code: "{course.url}"', text)


def stale_files(root: Path = ROOT, write: bool = False) -> list[str]:
    """The files whose install cell or release lines differ from what ``root``'s configuration makes;
    with ``write``, bring them up to date."""
    course, stale = Course.of(root), []
    for path in notebooks_with_install_cell(root):
        notebook = nbformat.read(str(path), as_version=4)
        cell, wanted = first_code_cell(notebook), install_cell_source(course)
        changed = cell.source != wanted
        cell.source = wanted
        if path.parent.parent.name == "source":  # an exercise notebook: students hand it in
            hand_in = hand_in_cell(notebook, path)
            changed |= hand_in.source != HAND_IN
            hand_in.source = HAND_IN
        if changed:
            stale.append(str(path.relative_to(root)))
            if write:
                nbformat.write(notebook, str(path))
    citation = root / "CITATION.cff"
    if citation.is_file():
        text = citation.read_text(encoding="utf-8")
        if citation_text(course, text) != text:
            stale.append("CITATION.cff")
            if write:
                citation.write_text(citation_text(course, text), encoding="utf-8")
    return stale


def main() -> int:
    for name in stale_files(write=True):
        print(f"course_links: updated: {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
