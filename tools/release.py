#!/usr/bin/env python3
"""Make a release: ``python tools/release.py VERSION`` (``make release VERSION=x.y.z``).

Every launch link, install cell and exercise link names the git tag ``v<version>`` of ``pyproject.toml``
(``tools/course_links.py``), so a release is one step that cannot be half done: refuse unless the working tree is
clean and the tag is new; write the version into both distributions; regenerate what names it; commit; tag.

``VERSION`` may be the current one: a fork that has just changed the address in ``_config.yml`` runs
``make release VERSION=<the version it has>`` to commit the regenerated links and create the tag they name.
Pushing (``git push --follow-tags``) and publishing (``make publish``) stay the maintainer's.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import course_links
from publish_edition import git

ROOT = Path(__file__).resolve().parent.parent
PYPROJECTS = ("pyproject.toml", "grader/pyproject.toml")
VERSION_LINE = re.compile(r'^version = "[^"]*"', re.MULTILINE)
RELEASE = re.compile(r"\d+\.\d+\.\d+")


def problem(root: Path, version: str) -> str | None:
    """Why ``version`` cannot be released from ``root`` now, or None."""
    if not RELEASE.fullmatch(version):
        return f"the version must read MAJOR.MINOR.PATCH, such as 0.4.0; got {version!r}"
    if git("status", "--porcelain", cwd=root):
        return "the working tree has uncommitted changes: commit or stash them, then release"
    if git("tag", "--list", f"v{version}", cwd=root):
        return f"the tag v{version} exists already: choose the next version"
    return None


def set_version(root: Path, version: str) -> None:
    for name in PYPROJECTS:
        path = root / name
        text, count = VERSION_LINE.subn(f'version = "{version}"', path.read_text(encoding="utf-8"), count=1)
        if count != 1:
            raise ValueError(f"{path}: no line `version = \"...\"` to set")
        path.write_text(text, encoding="utf-8")


def regenerate(root: Path) -> None:
    """The committed files that name the release: install cells, CITATION.cff, exercises/release/."""
    course_links.stale_files(root, write=True)
    subprocess.run([sys.executable, "-m", "posenc_grader.release", "--course", str(root / "exercises")], check=True)


def release(root: Path, version: str) -> str:
    """Bump, regenerate, commit and tag; return the tag."""
    reason = problem(root, version)
    if reason:
        raise SystemExit(f"release: {reason}")
    set_version(root, version)
    regenerate(root)
    tag = f"v{version}"
    git("add", "--all", cwd=root)
    if git("status", "--porcelain", cwd=root):
        git("commit", "--quiet", "-m", f"Release {version}: every link and install cell names {tag}", cwd=root)
    git("tag", "--annotate", tag, "-m", f"Release {version}", cwd=root)
    return tag


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("version", help="MAJOR.MINOR.PATCH, without the leading v")
    tag = release(ROOT, parser.parse_args().version)
    print(f"tagged {tag}; now `git push --follow-tags` and `make publish` (or let the publish workflow run)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
