"""Gradescope's autograder against ``make grade`` on the whole gallery of ``tests/test_grading.py``.

Usage, as root with bubblewrap: python benchmarks/gradescope.py [--assignments ch04_rotation ...] [--jobs 2]

The gallery is what the module fixture of ``tests/test_grading.py`` grades, less the attacks (which aim at
that fixture's own folders): for each assignment a perfect submission, the blank student version, the wrong
solutions, the other correct answers and the cheats of ``tests/cheats.py``; for ``ch04_rotation`` also its
bad submissions (malformed files, endless loops, crashes, a fork bomb, tampering, ...). Each notebook is
graded twice: by :func:`posenc_grader.grade_class` (``make grade``, in bubblewrap), all in one run, and in a
container of its own made from its assignment's autograder zip, as Gradescope grades it
(``tests/test_gradescope.py``'s harness, ``--jobs`` containers at a time). It prints, per assignment, how
many notebooks agree on every cell's score and maximum, the total, the status and the message; then each
disagreement, and the times. The exit status is 1 when any notebook disagrees.
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

import cheats  # noqa: E402 (tests/ holds the gallery and the harness: a folder of test modules, not a package)
import test_gradescope  # noqa: E402
import test_grading  # noqa: E402

from posenc_grader import grade_class, gradescope, samples  # noqa: E402


def gallery(assignments: list[str]) -> dict[tuple[str, str], tuple[str, object]]:
    """``{(student, assignment): (file name, notebook or raw text)}``, as tests/test_grading.py's fixture has them."""
    found: dict[tuple[str, str], tuple[str, object]] = {}
    for assignment, notebook in test_grading.notebooks():
        if assignment not in assignments:
            continue
        source = test_grading.read("source", assignment, notebook)
        release = test_grading.read("release", assignment, notebook)
        models, name = samples.solutions(source), f"{notebook}.ipynb"
        found["perfect", assignment] = name, samples.filled(release, models)
        found["blank", assignment] = name, release
        for number in range(3):
            found[f"wrong-{number + 1}", assignment] = name, samples.filled(
                release, {**models, **test_grading.wrong_answers(source, number)})
        for number, variant in enumerate(test_grading.correct_variants(source)):
            found[f"correct-{number + 1}", assignment] = name, samples.filled(
                release, {**models, **{answer: code for answer, (_, code) in variant.items()}})
        for kind in sorted(cheats.RETURNS):
            found[f"cheat-{kind}", assignment] = name, samples.filled(release, {
                answer: cheats.cheat(kind, cheats.names(models[answer]))
                for answer in samples.autograded_answers(source)})
    if test_grading.ROTATION[0] in assignments:
        for student, content in test_grading.bad_submissions().items():
            found[student, test_grading.ROTATION[0]] = content
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--assignments", nargs="+", default=sorted(test_grading.COURSE.assignments()))
    parser.add_argument("--jobs", type=int, default=2, help="notebooks graded at a time, each way")
    args = parser.parse_args()
    if os.geteuid() != 0:
        parser.error("run as root: Gradescope's container is a bubblewrap sandbox that root starts")
    submissions = gallery(args.assignments)
    with tempfile.TemporaryDirectory(prefix="posenc-gradescope-") as scratch:
        scratch = Path(scratch)
        started = time.monotonic()
        zips = gradescope.build(args.assignments, scratch / "zips", course=test_grading.COURSE.root, repository=ROOT)
        images = {assignment: test_gradescope.image(path, scratch / "images" / assignment)
                  for assignment, path in zip(args.assignments, zips, strict=True)}
        building = time.monotonic() - started
        for (student, assignment), (name, content) in submissions.items():
            test_grading.write(scratch / "class" / student / assignment / name, content)
        started = time.monotonic()
        rows = {(r["student"], r["assignment"]): r for r in grade_class(
            scratch / "class", scratch / "out", jobs=args.jobs, progress=lambda line: None)}
        make_grade = time.monotonic() - started

        def container(key: tuple[str, str]) -> tuple[dict, float]:
            begun = time.monotonic()
            student, assignment = key
            folder = scratch / "runs" / assignment / student.replace("/", "_")
            run = test_gradescope.submit(images[assignment], {submissions[key][0]: submissions[key][1]}, folder)
            shutil.rmtree(folder / "autograder" / "work", ignore_errors=True)
            return run, time.monotonic() - begun

        started = time.monotonic()
        with ThreadPoolExecutor(args.jobs) as pool:
            runs = dict(zip(submissions, pool.map(container, submissions), strict=True))
        containers = time.monotonic() - started
        problems = {}
        for (student, assignment), (run, _) in runs.items():
            row = rows[student, assignment]
            if run["results"] is None:
                problems[student, assignment] = ["no results.json: " + run["stdout"][-500:]]
                continue
            host = test_gradescope.gradebook_scores(scratch / "out", student, assignment, row["notebook"])
            found = test_gradescope.disagreements(run["results"], row, host)
            if found:
                problems[student, assignment] = found
    seconds = sorted(took for _, took in runs.values())
    for assignment in args.assignments:
        keys = [key for key in submissions if key[1] == assignment]
        print(f"{assignment}: {len(keys) - sum(key in problems for key in keys)} of {len(keys)} notebooks agree")
    for (student, assignment), found in sorted(problems.items()):
        print(f"DISAGREE {assignment} / {student}:\n  " + "\n  ".join(found))
    print(f"{len(submissions)} notebooks; building the zips and images {building:.0f} s; make grade, {args.jobs} jobs, "
          f"{make_grade:.0f} s; Gradescope's containers, {args.jobs} at a time, {containers:.0f} s (one container: "
          f"median {statistics.median(seconds):.1f} s, max {seconds[-1]:.1f} s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
