"""Regenerate the student versions: ``python -m posenc_grader.release`` (also ``make exercises``).

The student notebooks in ``exercises/release/`` are what the Colab and Binder buttons open, so they are
committed. They are made by ``nbgrader generate_assignment`` from ``exercises/source/`` and nothing else;
the test suite fails when a committed student version differs from what its source generates.

Before that, the rule every hidden test applies (:mod:`posenc.book.answers`, between its two ``shared``
markers) is copied into each hidden test of the sources, so that hidden tests and self-checks cannot
drift apart; the test suite fails when a source holds an older copy.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import textwrap
from pathlib import Path

import nbformat

import posenc.book.answers

from .course import HIDDEN_TESTS, Course, generate, same_notebooks

SHARED = ("# ---- shared with the hidden tests: begin\n", "# ---- shared with the hidden tests: end\n")


def shared_rule() -> str:
    """The shared part of :mod:`posenc.book.answers`, markers included, indented as inside ``_hidden_tests()``."""
    text = Path(posenc.book.answers.__file__).read_text(encoding="utf-8")
    block = SHARED[0] + text.split(SHARED[0], 1)[1].split(SHARED[1], 1)[0] + SHARED[1]
    return textwrap.indent(block, "    ")


def refresh_shared_rule(course: Course, *, write: bool = True) -> list[str]:
    """Put the current :func:`shared_rule` into every hidden test of ``course``; the notebooks that changed."""
    rule, changed = shared_rule(), []
    indented = tuple("    " + marker for marker in SHARED)
    for path in sorted((course.root / "source").glob("*/*.ipynb")):
        nb = nbformat.read(str(path), as_version=4)
        before = [cell.source for cell in nb.cells]
        for cell in nb.cells:
            if cell.cell_type == "code" and HIDDEN_TESTS[0] in cell.source and indented[0] in cell.source:
                head, rest = cell.source.split(indented[0], 1)
                cell.source = head + rule + rest.split(indented[1], 1)[1]
        if [cell.source for cell in nb.cells] != before:
            changed.append(str(path.relative_to(course.root)))
            if write:
                nbformat.write(nb, str(path))
    return changed


def stale(course: Course, generated: Path) -> list[str]:
    """The release notebooks of ``course`` that differ from those in the generated copy ``generated``."""
    fresh = {p.relative_to(generated / "release") for p in (generated / "release").glob("*/*.ipynb")}
    committed = {p.relative_to(course.root / "release") for p in (course.root / "release").glob("*/*.ipynb")}
    return sorted(str(p) for p in fresh ^ committed) + sorted(
        str(p) for p in fresh & committed
        if not same_notebooks(generated / "release" / p, course.root / "release" / p))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m posenc_grader.release", description=__doc__.splitlines()[0])
    parser.add_argument("--course", type=Path, help="the nbgrader course (default: this repository's exercises/)")
    parser.add_argument("--check", action="store_true", help="only report stale student versions (exit 1 if any)")
    args = parser.parse_args(argv)
    course = Course.find(args.course)
    refreshed = refresh_shared_rule(course, write=not args.check)
    with tempfile.TemporaryDirectory() as scratch:
        generated = generate(course, Path(scratch) / "course")
        changed = stale(course, generated)
        if args.check:
            changed = [f"{name} (an older copy of posenc/book/answers.py)" for name in refreshed] + changed
            print("\n".join(f"stale: {name}" for name in changed) or "every student version is up to date")
            return 1 if changed else 0
        shutil.rmtree(course.root / "release", ignore_errors=True)
        shutil.copytree(generated / "release", course.root / "release")
    print(f"wrote {len(list((course.root / 'release').glob('*/*.ipynb')))} student notebooks to "
          f"{course.root / 'release'} ({len(changed)} changed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
