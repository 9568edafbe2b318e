"""How long grading takes: one submission alone, and a class of generated submissions, with and without the sandbox.

Usage: python benchmarks/grading.py [--students 13] [--jobs 2] [--write benchmarks/results/grading.md]

The class is made from the course itself (:mod:`posenc_grader.samples`): each generated student hands
in every assignment, answered perfectly, left blank, or with one wrong solution per answer, in turn; so
13 students make 130 notebooks (ten assignments). The course is prepared once before timing (``nbgrader
generate_assignment``, cached in the output folder), as it is for any second run of an instructor.
The class is graded twice in the same run, with every kernel in the bubblewrap sandbox (the default)
and without it (``--no-sandbox``), in alternating order over ``--rounds`` rounds, so that the ratio of
the two is measured under the same load.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import nbformat

from posenc_grader import Limits, grade_class, samples
from posenc_grader.course import Course, prepare

WRONG = Path(__file__).resolve().parents[1] / "tests" / "wrong_solutions"


def make_class(course: Course, folder: Path, students: int) -> int:
    """Write ``students`` x (every assignment) submissions under ``folder``; return how many."""
    count = 0
    for number in range(students):
        for assignment, notebooks in course.assignments().items():
            for notebook in notebooks:
                source = nbformat.read(str(course.source(assignment, notebook)), as_version=4)
                release = nbformat.read(str(course.root / "release" / assignment / f"{notebook}.ipynb"), as_version=4)
                answers = samples.solutions(source) if number % 3 == 0 else {}
                if number % 3 == 2:
                    answers = {**samples.solutions(source), **{
                        a: sorted((WRONG / a).glob("*.py"))[number % 2].read_text()
                        for a in samples.autograded_answers(source)}}
                path = folder / f"student {number:03d}" / assignment / f"{notebook}.ipynb"
                path.parent.mkdir(parents=True, exist_ok=True)
                nbformat.write(samples.filled(release, answers), str(path))
                count += 1
    return count


def timed(submissions: Path, out: Path, jobs: int, sandboxed: bool = True) -> tuple[float, list[dict]]:
    started = time.monotonic()
    rows = grade_class(submissions, out, limits=Limits(), jobs=jobs, progress=lambda line: None, sandboxed=sandboxed)
    return time.monotonic() - started, rows


def latencies(rows: list[dict]) -> str:
    """Median, 95th percentile and maximum of the per-submission times of a run."""
    seconds = sorted(row["seconds"] for row in rows)
    return (f"{statistics.median(seconds):.1f} / {seconds[int(0.95 * (len(seconds) - 1))]:.1f} / "
            f"{seconds[-1]:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=13)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1, help="gradings of the class in each mode")
    parser.add_argument("--write", type=Path, help="also write the table to this Markdown file")
    args = parser.parse_args()
    course = Course.find()
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        started = time.monotonic()
        prepare(course, scratch / "out" / ".grading" / "prepared")
        preparing = time.monotonic() - started
        one = scratch / "one"
        make_class(course, one, 1)
        for extra in list(one.glob("*/*"))[1:]:
            for path in extra.glob("*"):
                path.unlink()
            extra.rmdir()
        alone, _ = timed(one, scratch / "out", jobs=1)
        n = make_class(course, scratch / "class", args.students)
        runs: dict[bool, list[tuple[float, list[dict]]]] = {True: [], False: []}
        for number in range(args.rounds):
            for sandboxed in ((False, True) if number % 2 == 0 else (True, False)):
                out = scratch / f"out-{number}-{sandboxed}"
                shutil.copytree(scratch / "out" / ".grading" / "prepared", out / ".grading" / "prepared")
                runs[sandboxed].append(timed(scratch / "class", out, jobs=args.jobs, sandboxed=sandboxed))
    total = {mode: sum(seconds for seconds, _ in done) / len(done) for mode, done in runs.items()}
    table = "\n".join([
        "| measurement | value |", "|---|---|",
        f"| preparing the course (generate_assignment, once) | {preparing:.1f} s |",
        f"| one submission alone, in the sandbox (whole run, 1 job) | {alone:.1f} s |",
        *(f"| {n} submissions, {args.jobs} jobs, {label}: total | {total[mode]:.0f} s "
          f"({total[mode] / n:.2f} s per submission) |" for mode, label in ((True, "sandboxed"),
                                                                        (False, "without the sandbox"))),
        f"| the sandbox's cost: sandboxed / without, same run | {total[True] / total[False]:.2f} |",
        f"| per-submission latency, sandboxed: median / 95th percentile / max | {latencies(runs[True][-1][1])} |",
        "", f"Measured on {platform.node()} ({os.cpu_count()} cores, Python {platform.python_version()}), "
        f"{time.strftime('%Y-%m-%d')}, {args.rounds} round(s) in each mode, alternating.",
    ])
    print(table)
    if args.write:
        args.write.write_text(table + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
