#!/usr/bin/env python3
"""Publish what the build made: the site to the ``gh-pages`` branch of a git remote, and the plain edition to
the release's edition branch.

Usage: python tools/publish_site.py [SITE] [REMOTE] [--branch gh-pages] [--edition-only]

**The site.** SITE (default ``_build/html``) becomes the whole tree of a single new commit, with an empty
``.nojekyll`` added so that GitHub Pages serves folders whose names start with an underscore (``_static``,
``_images``) instead of running Jekyll over them. The commit is force-pushed to REMOTE's branch, replacing
what was there: the branch holds the current site, not a history of builds. The commit is made in a
temporary git directory whose work tree is SITE.

**The plain edition** (``notebooks/`` next to SITE, which the build writes; what the launch buttons open) is
pushed first, so that the site's buttons never lead nowhere: one generated commit whose parent is HEAD and
whose tree is HEAD's tree plus ``notebooks/``, force-pushed to the branch that ``tools/course_links.py``
names after the release (``plain-v<version>``). On it ``binder/`` and ``pip install .`` work as at the
release, and the notebooks sit where the links expect them. The commit is made with git's plumbing in a
temporary index: the repository's own index, HEAD and branches are not touched.

REMOTE is a remote of this repository (``origin``), a git URL or a path. ``--edition-only`` pushes the
edition branch alone (the GitHub Actions workflow deploys the site with GitHub Pages' own actions).
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


def git(*args: str, env: dict | None = None, cwd: Path = ROOT) -> str:
    """Run git; its stdout, stripped; a RuntimeError with git's own message when it fails."""
    result = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True)
    if result.returncode:
        raise RuntimeError(f"git {' '.join(args)} failed: {result.stderr.strip() or result.stdout.strip()}")
    return result.stdout.strip()


def remote_url(remote: str, repository: Path = ROOT) -> str:
    """The URL to push to: a remote's URL when ``remote`` names one of ``repository``'s remotes, an absolute
    path for an existing local path, otherwise ``remote`` itself (a URL)."""
    if not remote:
        raise ValueError("no remote given: name a remote (origin), a git URL or a path")
    try:
        return git("remote", "get-url", remote, cwd=repository)
    except RuntimeError:
        pass
    path = Path(remote)
    if not path.is_absolute():
        path = repository / path
    return str(path.resolve()) if path.exists() else remote


def publish(site: Path, remote: str, branch: str = "gh-pages") -> str:
    """Push ``site`` (plus ``.nojekyll``) as the one commit of ``remote``'s ``branch``; return the commit's id."""
    site = Path(site).resolve()
    if not (site / "index.html").is_file():
        raise FileNotFoundError(f"no built site at {site} (no index.html): run `make book` first")
    url = remote_url(remote)
    (site / ".nojekyll").touch()
    with tempfile.TemporaryDirectory(prefix="publish-") as tmp:
        env = {**os.environ, **COMMITTER, "GIT_DIR": str(Path(tmp) / "git"), "GIT_WORK_TREE": str(site)}
        git("init", "--quiet", env=env, cwd=site)
        git("add", "--all", "--force", ".", env=env, cwd=site)  # --force: the site's files, whatever .gitignore says
        source = git("rev-parse", "--short", "HEAD", cwd=ROOT) if (ROOT / ".git").exists() else "unknown"
        git("commit", "--quiet", "--no-verify", "-m", f"Publish the site built from {source}", env=env, cwd=site)
        commit = git("rev-parse", "HEAD", env=env, cwd=site)
        git("push", "--quiet", "--force", url, f"HEAD:refs/heads/{branch}", env=env, cwd=site)
    return commit


def publish_edition(build: Path, remote: str, branch: str, repository: Path = ROOT) -> str:
    """Push HEAD's tree plus ``build/notebooks/`` (as ``notebooks/``), one commit on top of ``repository``'s
    HEAD, to ``remote``'s ``branch``; return the commit's id."""
    build = Path(build).resolve()
    if not any((build / EDITION_FOLDER).rglob("*.ipynb")):
        raise FileNotFoundError(f"no plain edition at {build / EDITION_FOLDER}: run `make book` first")
    url = remote_url(remote, repository)
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
    git("push", "--quiet", "--force", url, f"{commit}:refs/heads/{branch}", cwd=repository)
    return commit


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", nargs="?", default=ROOT / "_build" / "html", type=Path)
    parser.add_argument("remote", nargs="?", default="origin")
    parser.add_argument("--branch", default="gh-pages")
    parser.add_argument("--edition-only", action="store_true", help="push the plain edition's branch alone")
    args = parser.parse_args()
    branch = Course.of(ROOT).edition_branch
    try:
        edition = publish_edition(args.site.parent, args.remote, branch)
        print(f"publish: {args.site.parent / EDITION_FOLDER} -> {args.remote} {branch} ({edition[:12]})")
        if not args.edition_only:
            site = publish(args.site, args.remote, args.branch)
            print(f"publish: {args.site} -> {args.remote} {args.branch} ({site[:12]})")
    except (FileNotFoundError, ValueError, RuntimeError) as error:
        print(f"publish: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
