#!/usr/bin/env python3
"""The points table of the exercises appendix, made from the notebooks: ``python tools/exercise_table.py [--check]``.

``appendix/exercises.md`` lists every exercise notebook with its chapter, its points (autograded + graded
by hand, summed over the notebook's graded cells) and its Colab and Binder links. The table is written
here from ``exercises/source/``, never by hand: ``make new-question`` runs this after adding a question,
and the test suite fails (``--check``) when the page and the notebooks disagree.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
PAGE = Path("appendix") / "exercises.md"
HEADER = ["| Chapter | Points: autograded + by hand | Open the exercises in |", "|---|---|---|"]


def points(nb: nbformat.NotebookNode) -> tuple[int, int]:
    """(autograded, by hand): the points of the notebook's graded code cells and of its graded Markdown cells."""
    graded = [c for c in nb.cells if c.get("metadata", {}).get("nbgrader", {}).get("grade")]
    auto = sum(c.metadata.nbgrader.get("points", 0) for c in graded if c.cell_type == "code")
    return auto, sum(c.metadata.nbgrader.get("points", 0) for c in graded if c.cell_type == "markdown")


def rows(root: Path) -> list[str]:
    """One row per source notebook, in the order of the assignments (chapter ``NN`` for ``chNN_...``)."""
    lines = []
    for source in sorted((root / "exercises" / "source").glob("*/*.ipynb")):
        assignment = source.parent.name
        chapters = sorted((root / "chapters").glob(f"{assignment[2:4]}_*.ipynb"))
        if not chapters:
            raise FileNotFoundError(f"{source.relative_to(root)}: no chapter chapters/{assignment[2:4]}_*.ipynb for "
                                    f"the assignment {assignment}; an assignment is named chNN_<topic> after its "
                                    "chapter NN")
        auto, by_hand = points(nbformat.read(str(source), as_version=4))
        release = f"exercises/release/{assignment}/{source.name}"
        lines.append(f"| {{doc}}`../chapters/{chapters[0].stem}` | {auto:g} + {by_hand:g} | "
                     f"{{colab}}`{release}` · {{binder}}`{release}` |")
    return lines


def with_table(page: str, table: list[str]) -> str:
    """``page`` with its points table (the header and the rows under it) replaced by ``table``."""
    lines = page.split("\n")
    start = lines.index(HEADER[0])
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return "\n".join(lines[:start] + HEADER + table + lines[end:])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare (exit 1 when the page is out of date)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the repository (default: this one)")
    args = parser.parse_args(argv)
    path = args.root / PAGE
    page, table = path.read_text(encoding="utf-8"), rows(args.root)
    fresh = with_table(page, table)
    if args.check:
        if fresh != page:
            print(f"{PAGE}: the points table differs from the notebooks; run `python tools/exercise_table.py`")
            return 1
        return 0
    path.write_text(fresh, encoding="utf-8")
    print(f"wrote the points table of {PAGE} ({len(table)} notebooks)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
