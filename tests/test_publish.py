"""`make publish REMOTE=...` pushes the built site, as it is, to REMOTE's gh-pages branch (tools/publish_site.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from publish_site import publish, remote_url  # noqa: E402


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def bare_repository(path: Path) -> Path:
    git("init", "--quiet", "--bare", str(path), cwd=path.parent)
    return path


def published_files(remote: Path, branch: str = "gh-pages") -> set[str]:
    return set(git("ls-tree", "-r", "--name-only", branch, cwd=remote).split())


def site_files(site: Path) -> set[str]:
    return {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}


def test_make_publish_pushes_every_file_of_the_built_site_with_nojekyll(site, tmp_path):
    remote = bare_repository(tmp_path / "remote.git")
    result = subprocess.run(["make", "-s", "publish", f"REMOTE={remote}"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    files = published_files(remote)
    assert ".nojekyll" in files
    assert files == site_files(site), "gh-pages differs from _build/html"
    assert {"index.html", "intro.html", "_static/vendor/widgets.js"} <= files
    assert any(f.startswith("chapters/") and f.endswith(".html") for f in files)
    assert git("show", "gh-pages:intro.html", cwd=remote) == (site / "intro.html").read_text(encoding="utf-8")


def test_publishing_again_replaces_the_branch_with_the_new_site(tmp_path):
    site = tmp_path / "html"
    (site / "_static").mkdir(parents=True)
    (site / "index.html").write_text("<p>first</p>")
    (site / "_static" / "old.css").write_text("p {}")
    remote = bare_repository(tmp_path / "remote.git")
    first = publish(site, str(remote))
    (site / "_static" / "old.css").unlink()
    (site / "index.html").write_text("<p>second</p>")
    second = publish(site, str(remote))
    assert first != second
    assert published_files(remote) == {".nojekyll", "index.html"}
    assert git("rev-list", "--count", "gh-pages", cwd=remote).strip() == "1", "gh-pages keeps only the current site"
    assert git("show", "gh-pages:index.html", cwd=remote) == "<p>second</p>"


def test_publish_refuses_a_folder_without_a_built_site(tmp_path):
    remote = bare_repository(tmp_path / "remote.git")
    with pytest.raises(FileNotFoundError, match="make book"):
        publish(tmp_path / "nothing", str(remote))


def test_remote_is_a_remote_name_a_path_or_a_url(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    git("init", "--quiet", cwd=repo)
    git("remote", "add", "origin", "https://example.org/book.git", cwd=repo)
    assert remote_url("origin", repo) == "https://example.org/book.git"
    assert remote_url("../repo", repo) == str(repo.resolve())
    assert remote_url("git@example.org:x/y.git", repo) == "git@example.org:x/y.git"
    with pytest.raises(ValueError, match="no remote"):
        remote_url("", repo)


def test_a_push_that_fails_names_the_problem(tmp_path):
    site = tmp_path / "html"
    site.mkdir()
    (site / "index.html").write_text("<p>x</p>")
    with pytest.raises(RuntimeError, match="git push"):
        publish(site, str(tmp_path / "no-such-remote.git"))
