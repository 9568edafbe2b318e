#!/usr/bin/env python3
"""Push the plain edition, what the launch buttons open, to the release's edition branch of a git remote.

Usage: python tools/publish_edition.py [REMOTE]

The edition (``notebooks/`` in the build folder) goes out as one generated commit whose parent is HEAD and whose
tree is HEAD's tree plus ``notebooks/``, force-pushed to ``plain-v<version>``: there ``binder/`` and ``pip install
.`` work as at the release. The commit is made with git's plumbing in a temporary index: the repository's own
index, HEAD and branches are not touched. (The site goes out with ghp-import, which commits a folder alone.)

REMOTE is anything ``git push`` takes: a remote's name (``origin``), a git URL or a path.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from course_links import EDITION_FOLDER, Course

ROOT = Path(__file__).resolve().parent.parent
COMMITTER = {"GIT_AUTHOR_NAME": "make publish", "GIT_AUTHOR_EMAIL": "publish@localhost",
             "GIT_COMMITTER_NAME": "make publish", "GIT_COMMITTER_EMAIL": "publish@localhost"}


def git(*args: str, cwd: Path, env: dict | None = None) -> str:
    """Run git; its stdout, stripped; a RuntimeError with git's own message when it fails."""
    result = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True)
    if result.returncode:
        raise RuntimeError(f"git {' '.join(args)} failed: {result.stderr.strip() or result.stdout.strip()}")
    return result.stdout.strip()


def publish_edition(build: Path, remote: str, branch: str, repository: Path = ROOT) -> str:
    """Push HEAD's tree plus ``build/notebooks/`` (as ``notebooks/``), one commit on top of ``repository``'s
    HEAD, to ``remote``'s ``branch``; return the commit's id."""
    build = Path(build).resolve()
    if not any((build / EDITION_FOLDER).rglob("*.ipynb")):
        raise FileNotFoundError(f"no plain edition at {build / EDITION_FOLDER}: run `make book` first")
    head = git("rev-parse", "HEAD", cwd=repository)
    with tempfile.TemporaryDirectory(prefix="publish-edition-") as tmp:
        env = {**os.environ, **COMMITTER, "GIT_DIR": git("rev-parse", "--absolute-git-dir", cwd=repository),
               "GIT_INDEX_FILE": str(Path(tmp) / "index"), "GIT_WORK_TREE": str(build)}
        git("read-tree", head, env=env, cwd=build)
        git("rm", "-r", "--cached", "--quiet", "--ignore-unmatch", "--", EDITION_FOLDER, env=env, cwd=build)
        git("add", "--force", "--", EDITION_FOLDER, env=env, cwd=build)  # --force: whatever the ignore rules say
        tree = git("write-tree", env=env, cwd=build)
        message = f"Plain edition of {head[:12]}: its tree plus the built {EDITION_FOLDER}/"
        commit = git("commit-tree", tree, "-p", head, "-m", message, env=env, cwd=build)
    git("push", "--quiet", "--force", remote, f"{commit}:refs/heads/{branch}", cwd=repository)
    return commit


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("remote", nargs="?", default="origin")
    remote, build = parser.parse_args().remote, ROOT / "_build"
    branch = Course.of(ROOT).edition_branch
    try:
        commit = publish_edition(build, remote, branch)
    except (FileNotFoundError, RuntimeError) as error:
        print(f"publish: {error}", file=sys.stderr)
        return 1
    print(f"publish: {build / EDITION_FOLDER} -> {remote} {branch} ({commit[:12]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
