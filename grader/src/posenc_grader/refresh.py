"""After grading by hand: ``python -m posenc_grader.refresh OUT_DIR`` (also ``make feedback OUT=OUT_DIR``).

nbgrader's formgrader, started in ``OUT_DIR/instructor_only``, writes manual scores and comments into the class
gradebook there. This command writes again from it, without running any student code, every feedback page,
``grades.csv`` and, after a platform's download, that platform's gradebook and feedback zips.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

from . import gradebooks
from .records import HAND_BACK, ClassRecord


def refresh(out: Path | str) -> list[str]:
    """Write the feedback pages, ``grades.csv`` and the platforms' files of ``out`` again; say what was written.

    Raises ``FileNotFoundError`` when nothing was graded into ``out``.
    """
    out = Path(out)
    with warnings.catch_warnings():  # nbgrader's own SQLAlchemy warnings say nothing to act on
        warnings.simplefilter("ignore")
        record = ClassRecord(out)
        pages = [record.write_page(tuple(key.split("\t"))) for key in sorted(record.statuses)]
        return [f"wrote {len(pages)} feedback pages in {out / HAND_BACK / 'feedback'}", f"wrote {record.write_csv()}",
                *gradebooks.write(out), *record.warnings()]


def main(argv: list[str] | None = None) -> int:
    description = __doc__.split("\n\n")[1].replace("``", "")
    parser = argparse.ArgumentParser(prog="python -m posenc_grader.refresh", description=description)
    parser.add_argument("out", type=Path, metavar="OUT_DIR")
    args = parser.parse_args(argv)
    try:
        print("\n".join(refresh(args.out)))
    except FileNotFoundError as error:
        print(f"posenc_grader.refresh: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
