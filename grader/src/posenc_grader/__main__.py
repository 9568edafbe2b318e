"""Command line: ``python -m posenc_grader SUBMISSIONS --out OUT_DIR`` (also ``make grade``)."""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

from . import Limits, grade_class
from .platforms import FOLDERS, PLATFORMS


def main(argv: list[str] | None = None) -> int:
    defaults = Limits()
    parser = argparse.ArgumentParser(
        prog="python -m posenc_grader",
        description="Autograde a class's exercise notebooks with nbgrader: SUBMISSIONS is a folder "
                    "<student>/<assignment>/<notebook>.ipynb, or a learning platform's download of all submissions "
                    "(the zip or its folder); OUT_DIR receives grades.csv, hand_back/ (what students may receive) "
                    "and instructor_only/ (what never leaves), as the instructor guide tells. After grading by hand, "
                    "python -m posenc_grader.refresh OUT_DIR.")
    parser.add_argument("submissions", type=Path, metavar="SUBMISSIONS")
    parser.add_argument("--out", type=Path, required=True, metavar="OUT_DIR")
    parser.add_argument("--course", type=Path, help="the nbgrader course (default: this repository's exercises/)")
    parser.add_argument("--jobs", type=int, help="notebooks graded at a time (default: the available cores)")
    parser.add_argument("--cell-timeout", type=int, default=defaults.cell_timeout, help="seconds per cell")
    parser.add_argument("--notebook-timeout", type=int, default=defaults.notebook_timeout,
                        help="seconds per notebook, all included")
    parser.add_argument("--memory-mb", type=int, default=defaults.memory_mb, help="memory of one grading kernel")
    parser.add_argument("--max-file-mb", type=int, default=defaults.max_file_mb, help="largest file graded")
    parser.add_argument("--platform", choices=("auto", FOLDERS, *PLATFORMS), default="auto",
                        help="what SUBMISSIONS is (default: told from the names)")
    parser.add_argument("--roster", type=Path, metavar="CSV",
                        help="the class: maps the platform's ids to the names and ids of the gradebook, and who "
                             "handed nothing in is graded missing (see the guide)")
    parser.add_argument("--no-sandbox", action="store_true",
                        help="run student kernels without the bubblewrap sandbox (only where none can be made)")
    args = parser.parse_args(argv)
    limits = Limits(cell_timeout=args.cell_timeout, notebook_timeout=args.notebook_timeout,
                    memory_mb=args.memory_mb, max_file_mb=args.max_file_mb)
    started = time.monotonic()
    try:
        rows = grade_class(args.submissions, args.out, course=args.course, limits=limits, jobs=args.jobs,
                           sandboxed=not args.no_sandbox, platform=args.platform, roster=args.roster)
    except (FileNotFoundError, RuntimeError, ValueError) as error:
        print(f"posenc_grader: {error}", file=sys.stderr)
        return 2
    counts = collections.Counter(row["status"] for row in rows)
    graded = [row["seconds"] for row in rows if row["seconds"]]
    print(f"{len(rows)} notebook{'s' * (len(rows) != 1)} in {time.monotonic() - started:.0f} s"
          + (f" (mean {sum(graded) / len(graded):.1f} s each)" if graded else "")
          + ": " + ", ".join(f"{n} {status}" for status, n in counts.most_common()), file=sys.stderr)
    return 1 if counts["grader_error"] else 0


if __name__ == "__main__":
    sys.exit(main())
