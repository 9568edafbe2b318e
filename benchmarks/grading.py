"""How long grading takes: one submission alone, and a class at 1 and at 2 jobs, with and without the sandbox.

Usage: python benchmarks/grading.py [--students 13] [--jobs 2] [--write benchmarks/results/grading.md]

The class is made from the course itself: each student hands in every assignment, answered perfectly, left blank,
or with one wrong solution per answer, in turn. The course is prepared once before timing, as it is for any
second run of an instructor. The class is graded in the three modes in turn over ``--rounds`` rounds, so that
the ratios are measured under the same load; the table projects the time for a class of 100, 1,000 and 10,000
submissions on this machine.
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
from posenc_grader.records import PREPARED

TESTS = Path(__file__).resolve().parents[1] / "tests"


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
                        a: list(samples.mistakes(TESTS, source, a).values())[number % 2][1]
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
        prepare(course, scratch / "out" / PREPARED)
        preparing = time.monotonic() - started
        one = scratch / "one"
        make_class(course, one, 1)
        for extra in sorted(one.glob("*/*"))[1:]:  # one assignment
            shutil.rmtree(extra)
        alone, _ = timed(one, scratch / "out", jobs=1)
        n = make_class(course, scratch / "class", args.students)
        modes = [(True, 1), (True, args.jobs), (False, args.jobs)]
        runs: dict[tuple[bool, int], list[tuple[float, list[dict]]]] = {mode: [] for mode in modes}
        for number in range(args.rounds):
            for sandboxed, jobs in (modes if number % 2 == 0 else modes[::-1]):
                out = scratch / f"out-{number}-{sandboxed}-{jobs}"
                shutil.copytree(scratch / "out" / PREPARED, out / PREPARED)
                runs[sandboxed, jobs].append(timed(scratch / "class", out, jobs=jobs, sandboxed=sandboxed))
    total = {mode: sum(seconds for seconds, _ in done) / len(done) for mode, done in runs.items()}
    rate = {mode: n / seconds for mode, seconds in total.items()}
    many = (True, args.jobs)
    seconds = sorted(row["seconds"] for row in runs[many][-1][1])  # per submission, in the last run of `many`
    table = "\n".join([
        "| measurement | value |", "|---|---|",
        f"| preparing the course (generate_assignment, once) | {preparing:.1f} s |",
        f"| one submission alone, in the sandbox (whole run, 1 job) | {alone:.1f} s |",
        *(f"| {n} submissions, {jobs} job{'s' * (jobs > 1)}, {'sandboxed' if sandboxed else 'without the sandbox'}: "
          f"total | {total[sandboxed, jobs]:.0f} s ({rate[sandboxed, jobs]:.2f} notebooks per second) |"
          for sandboxed, jobs in modes),
        f"| {args.jobs} jobs against 1, sandboxed: speed-up, same run | {rate[many] / rate[True, 1]:.2f}x |",
        f"| the sandbox's cost: sandboxed / without, {args.jobs} jobs, same run | "
        f"{total[many] / total[False, args.jobs]:.2f} |",
        f"| per-submission latency, sandboxed, {args.jobs} jobs: median / 95th percentile / max | "
        f"{statistics.median(seconds):.1f} / {seconds[int(0.95 * (len(seconds) - 1))]:.1f} / {seconds[-1]:.1f} s |",
        *(f"| projected: {size:,} submissions, sandboxed, {args.jobs} jobs | {size / rate[many] / 60:.0f} min |"
          for size in (100, 1_000, 10_000)),
        "", f"Measured on {platform.node()} ({os.cpu_count()} cores, Python {platform.python_version()}), "
        f"{time.strftime('%Y-%m-%d')}, {args.rounds} round(s) in each mode, in turn.",
    ])
    print(table)
    if args.write:
        args.write.write_text(table + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
