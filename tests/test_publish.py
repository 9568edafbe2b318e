"""`make publish REMOTE=...` pushes the built site, as it is, to REMOTE's gh-pages branch, and the plain edition,
on top of the release, to REMOTE's edition branch plain-v<version> (tools/publish_edition.py; the site with
ghp-import)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT
from course_links import Course
from publish_edition import publish_edition


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def bare_repository(path: Path) -> Path:
    git("init", "--quiet", "--bare", str(path), cwd=path.parent)
    return path


def published_files(remote: Path, branch: str = "gh-pages") -> set[str]:
    return set(git("ls-tree", "-r", "--name-only", branch, cwd=remote).split())


def test_make_publish_pushes_every_file_of_the_built_site_with_nojekyll_and_the_plain_edition(site, tmp_path):
    clone = tmp_path / "clone"  # ghp-import moves the local gh-pages branch: publish from a clone, not the repository
    git("clone", "--quiet", "--shared", str(ROOT), str(clone), cwd=tmp_path)
    for edition in ("html", "notebooks"):  # what make publish pushes; not the build's caches and test venvs
        shutil.copytree(site.parent / edition, clone / "_build" / edition)
    remote = bare_repository(tmp_path / "remote.git")
    for attempt in ("first", "second"):  # publishing again replaces the site: gh-pages holds one commit
        result = subprocess.run(["make", "-s", "publish", f"REMOTE={remote}", f"PY={sys.executable}"], cwd=clone,
                                capture_output=True, text=True)
        assert result.returncode == 0, f"{attempt}: {result.stderr}"
    files = published_files(remote)
    assert files == {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()} | {".nojekyll"}
    assert git("show", "gh-pages:intro.html", cwd=remote) == (site / "intro.html").read_text(encoding="utf-8")
    assert git("rev-list", "--count", "gh-pages", cwd=remote).strip() == "1", "gh-pages keeps only the current site"
    branch = Course.of(ROOT).edition_branch
    edition = {f for f in published_files(remote, branch) if f.startswith("notebooks/")}
    assert edition == {f"notebooks/{p.relative_to(site.parent / 'notebooks').as_posix()}"
                       for p in (site.parent / "notebooks").rglob("*") if p.is_file()}
    assert git("rev-parse", f"{branch}^", cwd=remote).strip() == git("rev-parse", "HEAD", cwd=ROOT).strip()


def release_repository(path: Path) -> Path:
    """A repository with one commit (a file and binder/) and a change staged but not committed."""
    path.mkdir()
    git("init", "--quiet", cwd=path)
    (path / "binder").mkdir()
    (path / "binder" / "requirements.txt").write_text("numpy\n")
    (path / "README.md").write_text("release\n")
    git("add", "-A", cwd=path)
    git("-c", "user.name=test", "-c", "user.email=test@example.org", "commit", "--quiet", "-m", "release", cwd=path)
    (path / "staged.txt").write_text("not released\n")
    git("add", "staged.txt", cwd=path)
    return path


def test_the_plain_edition_is_pushed_on_top_of_head_with_the_release_tree_and_leaves_the_index_alone(tmp_path):
    repo = release_repository(tmp_path / "repo")
    build = tmp_path / "build"
    (build / "notebooks" / "chapters").mkdir(parents=True)
    (build / "notebooks" / "chapters" / "01_x.ipynb").write_text('{"cells": []}\n')
    (build / "html").mkdir()  # a site next to it is not part of the edition
    (build / "html" / "index.html").write_text("<p>site</p>")
    remote = bare_repository(tmp_path / "remote.git")
    index = (repo / ".git" / "index").read_bytes()
    head = git("rev-parse", "HEAD", cwd=repo).strip()

    commit = publish_edition(build, str(remote), "plain-v1.0.0", repository=repo)

    assert git("rev-parse", "plain-v1.0.0", cwd=remote).strip() == commit
    assert git("rev-parse", f"{commit}^", cwd=remote).strip() == head, "the edition's parent is the release"
    assert git("rev-list", "--count", commit, cwd=remote).strip() == "2"
    assert published_files(remote, "plain-v1.0.0") == {"README.md", "binder/requirements.txt",
                                                       "notebooks/chapters/01_x.ipynb"}
    assert git("show", f"{commit}:notebooks/chapters/01_x.ipynb", cwd=remote) == '{"cells": []}\n'
    assert (repo / ".git" / "index").read_bytes() == index, "the repository's index was touched"
    assert git("rev-parse", "HEAD", cwd=repo).strip() == head
    assert git("branch", "--list", cwd=repo).split() == ["*", git("branch", "--show-current", cwd=repo).strip()]
    assert git("status", "--porcelain", cwd=repo) == "A  staged.txt\n"


def test_publish_refuses_a_build_without_a_plain_edition(tmp_path):
    repo = release_repository(tmp_path / "repo")
    remote = bare_repository(tmp_path / "remote.git")
    with pytest.raises(FileNotFoundError, match="no plain edition .* run `make book`"):
        publish_edition(tmp_path / "build", str(remote), "plain-v1.0.0", repository=repo)
