"""Gradescope's autograder against ``make grade``, notebook for notebook, on a class made from the course.

Usage, as root with bubblewrap: python benchmarks/gradescope.py [--assignments ch04_rotation ...] [--jobs 2]

The class: the three students of ``benchmarks/grading.py``, the cheats of ``tests/cheats.py``, and for
``ch04_rotation`` the bad submissions of ``tests/test_grading.py``. Each notebook is graded by
:func:`posenc_grader.grade_class` and in a container of its own, as Gradescope grades it (``tests/test_gradescope.py``'s
harness). It prints, per assignment, how many notebooks agree on every cell, the total, the status and the
message; then each disagreement, and the times. The exit status is 1 when any notebook disagrees.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import cheats  # noqa: E402 (tests/ holds the class and the harness: a folder of test modules, not a package)
import grading  # noqa: E402 (benchmarks/grading.py, beside this file)
import test_gradescope  # noqa: E402
import test_grading  # noqa: E402
from grading_kit import COURSE, ROTATION, read, write  # noqa: E402

from posenc_grader import grade_class, gradescope  # noqa: E402


def write_class(folder: Path, assignments: list[str]) -> None:
    """``folder/<student>/<assignment>/<notebook>``: the class described above, for ``assignments`` only."""
    grading.make_class(COURSE, folder, 3)
    for assignment, notebook in test_grading.notebooks():
        source, release = read("source", assignment, notebook), read("release", assignment, notebook)
        for kind in sorted(cheats.RETURNS):
            write(folder / f"cheat-{kind}" / assignment / f"{notebook}.ipynb", cheats.submission(kind, source, release))
    for student, (name, content) in test_grading.bad_submissions().items():
        write(folder / student / ROTATION[0] / name, content)
    for path in folder.glob("*/*"):
        if path.name not in assignments:
            shutil.rmtree(path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--assignments", nargs="+", default=sorted(COURSE.assignments()))
    parser.add_argument("--jobs", type=int, default=2, help="notebooks graded at a time, each way")
    args = parser.parse_args()
    if os.geteuid() != 0:
        parser.error("run as root: Gradescope's container is a bubblewrap sandbox that root starts")
    with tempfile.TemporaryDirectory(prefix="posenc-gradescope-") as scratch:
        scratch = Path(scratch)
        started = time.monotonic()
        zips = gradescope.build(args.assignments, scratch / "zips", course=COURSE.root, repository=ROOT)
        images = {assignment: test_gradescope.image(path, scratch / "images" / assignment)
                  for assignment, path in zip(args.assignments, zips, strict=True)}
        building = time.monotonic() - started
        write_class(scratch / "class", args.assignments)
        files = {(path.parts[-3], path.parts[-2]): path for path in sorted((scratch / "class").glob("*/*/*"))}
        started = time.monotonic()
        rows = {(r["student"], r["assignment"]): r for r in grade_class(
            scratch / "class", scratch / "out", jobs=args.jobs, progress=lambda line: None)}
        make_grade = time.monotonic() - started

        def container(key: tuple[str, str]) -> tuple[dict, float]:
            begun, (student, assignment) = time.monotonic(), key
            folder = scratch / "runs" / assignment / student
            run = test_gradescope.submit(images[assignment], {files[key].name: files[key].read_text()}, folder)
            shutil.rmtree(folder / "autograder" / "work", ignore_errors=True)
            return run, time.monotonic() - begun

        started = time.monotonic()
        with ThreadPoolExecutor(args.jobs) as pool:
            runs = dict(zip(files, pool.map(container, files), strict=True))
        containers = time.monotonic() - started
        problems = {}
        for key, (run, _) in runs.items():
            row = rows[key]
            if run["results"] is None:
                problems[key] = ["no results.json: " + run["stdout"][-500:]]
                continue
            host = gradescope.scores(scratch / "out", row)
            problems[key] = test_gradescope.disagreements(run["results"], row, host)
    problems = {key: found for key, found in problems.items() if found}
    seconds = sorted(took for _, took in runs.values())
    for assignment in args.assignments:
        keys = [key for key in files if key[1] == assignment]
        print(f"{assignment}: {len(keys) - sum(key in problems for key in keys)} of {len(keys)} notebooks agree")
    for (student, assignment), found in sorted(problems.items()):
        print(f"DISAGREE {assignment} / {student}:\n  " + "\n  ".join(found))
    print(f"{len(files)} notebooks; building the zips and images {building:.0f} s; make grade, {args.jobs} jobs, "
          f"{make_grade:.0f} s; Gradescope's containers, {args.jobs} at a time, {containers:.0f} s (one container: "
          f"median {statistics.median(seconds):.1f} s, max {seconds[-1]:.1f} s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
