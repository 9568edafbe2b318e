"""`make publish REMOTE=...` pushes the built site, as it is, to REMOTE's gh-pages branch, and the plain edition,
on top of the release, to REMOTE's edition branch plain-v<version> (tools/publish_edition.py; the site with
ghp-import)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT
from course_links import Course
from publish_edition import git, publish_edition

NOTEBOOK = '{"cells": []}\n'


def bare_repository(path: Path) -> Path:
    git("init", "--quiet", "--bare", str(path), cwd=path.parent)
    return path


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def repository(path: Path, files: dict[str, str]) -> Path:
    """A repository with one commit that holds ``files`` (``{path: text}``)."""
    write(path, files)
    git("init", "--quiet", cwd=path)
    git("add", "-A", cwd=path)
    git("-c", "user.name=test", "-c", "user.email=test@example.org", "commit", "--quiet", "-m", "release", cwd=path)
    return path


def published_files(remote: Path, branch: str = "gh-pages") -> set[str]:
    return set(git("ls-tree", "-r", "--name-only", branch, cwd=remote).split())


@pytest.mark.build
def test_make_publish_pushes_the_built_site_with_nojekyll_and_the_plain_edition(tmp_path):
    """From a small repository with the book's Makefile, tools and configuration, and a small built site (what it
    holds does not matter to ghp-import)."""
    book = ("Makefile", "_config.yml", "pyproject.toml", "tools/course_links.py", "tools/publish_edition.py")
    repo = repository(tmp_path / "repo", {name: (ROOT / name).read_text() for name in book})
    write(repo / "_build", {"html/intro.html": "<p>site</p>", "html/_static/theme.css": "p {}",  # _static: .nojekyll
                            "notebooks/chapters/01_x.ipynb": NOTEBOOK, "jupyter_execute/x.png": "not published"})
    remote = bare_repository(tmp_path / "remote.git")
    for attempt in ("first", "second"):  # publishing again replaces the site: gh-pages holds one commit
        result = subprocess.run(["make", "-s", "publish", f"REMOTE={remote}", f"PY={sys.executable}"], cwd=repo,
                                capture_output=True, text=True)
        assert result.returncode == 0, f"{attempt}: {result.stderr}"
    assert published_files(remote) == {"intro.html", "_static/theme.css", ".nojekyll"}
    assert git("show", "gh-pages:intro.html", cwd=remote) == "<p>site</p>"
    assert git("rev-list", "--count", "gh-pages", cwd=remote) == "1", "gh-pages keeps only the current site"
    branch = Course.of(ROOT).edition_branch  # what the edition's commit holds: the next test
    assert git("rev-parse", f"{branch}^", cwd=remote) == git("rev-parse", "HEAD", cwd=repo)


def release_repository(path: Path) -> Path:
    """A repository with one commit (a file and binder/) and a change staged but not committed."""
    repository(path, {"binder/requirements.txt": "numpy\n", "README.md": "release\n"})
    (path / "staged.txt").write_text("not released\n")
    git("add", "staged.txt", cwd=path)
    return path


def test_the_plain_edition_is_pushed_on_top_of_head_with_the_release_tree_and_leaves_the_index_alone(tmp_path):
    repo = release_repository(tmp_path / "repo")
    build = tmp_path / "build"
    write(build, {"notebooks/chapters/01_x.ipynb": NOTEBOOK, "html/index.html": "<p>site</p>"})  # html: not the edition
    remote = bare_repository(tmp_path / "remote.git")
    index = (repo / ".git" / "index").read_bytes()
    head = git("rev-parse", "HEAD", cwd=repo)

    commit = publish_edition(build, str(remote), "plain-v1.0.0", repository=repo)

    assert git("rev-parse", "plain-v1.0.0", cwd=remote) == commit
    assert git("rev-parse", f"{commit}^", cwd=remote) == head, "the edition's parent is the release"
    assert published_files(remote, "plain-v1.0.0") == {"README.md", "binder/requirements.txt",
                                                       "notebooks/chapters/01_x.ipynb"}
    assert git("show", f"{commit}:notebooks/chapters/01_x.ipynb", cwd=remote) == NOTEBOOK.strip()
    assert (repo / ".git" / "index").read_bytes() == index, "the repository's index was touched"
    assert git("rev-parse", "HEAD", cwd=repo) == head
    assert git("branch", "--list", cwd=repo).split() == ["*", git("branch", "--show-current", cwd=repo)]
    assert git("status", "--porcelain", cwd=repo) == "A  staged.txt"


def test_publish_refuses_a_build_without_a_plain_edition(tmp_path):
    repo = release_repository(tmp_path / "repo")
    remote = bare_repository(tmp_path / "remote.git")
    with pytest.raises(FileNotFoundError, match="no plain edition .* run `make book`"):
        publish_edition(tmp_path / "build", str(remote), "plain-v1.0.0", repository=repo)
