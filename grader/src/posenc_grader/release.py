"""Regenerate the student versions: ``python -m posenc_grader.release`` (also ``make exercises``).

The student notebooks in ``exercises/release/`` are what the Colab and Binder buttons open, so they are
committed. They are made by ``nbgrader generate_assignment`` from ``exercises/source/`` and nothing else;
the test suite fails when a committed student version differs from what its source generates. A course in
which a question still holds a TODO of ``make new-question`` is refused, each TODO named.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from .course import Course, generate, same_notebooks


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
    course = Course.find(parser.parse_args(argv).course)
    try:
        course.refuse_unfinished("write the student versions")
    except RuntimeError as error:
        print(error, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as scratch:
        generated = generate(course, Path(scratch) / "course")
        changed = stale(course, generated)
        shutil.rmtree(course.root / "release", ignore_errors=True)
        shutil.copytree(generated / "release", course.root / "release")
    print(f"wrote {len(list((course.root / 'release').glob('*/*.ipynb')))} student notebooks to "
          f"{course.root / 'release'} ({len(changed)} changed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
