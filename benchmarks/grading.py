"""How long grading takes: one submission alone, and a class of generated submissions in parallel.

Usage: python benchmarks/grading.py [--students 13] [--jobs 2] [--write benchmarks/results/grading.md]

The class is made from the course itself (:mod:`posenc_grader.samples`): each generated student hands
in every assignment, answered perfectly, left blank, or with one wrong solution per answer, in turn; so
13 students make 104 notebooks. The course is prepared once before timing (``nbgrader
generate_assignment``, cached in the output folder), as it is for any second run of an instructor.
"""

from __future__ import annotations

import argparse
import os
import platform
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


def timed(submissions: Path, out: Path, jobs: int) -> tuple[float, list[dict]]:
    started = time.monotonic()
    rows = grade_class(submissions, out, limits=Limits(), jobs=jobs, progress=lambda line: None)
    return time.monotonic() - started, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=13)
    parser.add_argument("--jobs", type=int, default=2)
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
        total, rows = timed(scratch / "class", scratch / "out", jobs=args.jobs)
    latencies = sorted(row["seconds"] for row in rows)
    table = "\n".join([
        "| measurement | value |", "|---|---|",
        f"| preparing the course (generate_assignment, once) | {preparing:.1f} s |",
        f"| one submission alone (whole run, 1 job) | {alone:.1f} s |",
        f"| {n} submissions, {args.jobs} jobs: total | {total:.0f} s ({total / n:.2f} s per submission) |",
        f"| per-submission latency in that run: median / 95th percentile / max | "
        f"{statistics.median(latencies):.1f} / {latencies[int(0.95 * (n - 1))]:.1f} / {latencies[-1]:.1f} s |",
        "", f"Measured on {platform.node()} ({os.cpu_count()} cores, Python {platform.python_version()}), "
        f"{time.strftime('%Y-%m-%d')}.",
    ])
    print(table)
    if args.write:
        args.write.write_text(table + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
