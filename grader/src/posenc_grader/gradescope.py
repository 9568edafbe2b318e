"""Gradescope's autograder for the exercises: ``python -m posenc_grader.gradescope ASSIGNMENT... --out DIR``.

What the zip holds, how Gradescope runs it and what students see: the instructor guide, *Grading on Gradescope*.
:func:`build` writes one zip per assignment (its source notebooks without model answers:
:func:`without_model_answers`). :func:`run`, what ``run_autograder`` runs as root in each container, closes
``/autograder`` to every other user (the kernel of the in-container sandbox, :mod:`posenc_grader.sandbox`, shares
its file system), grades with :func:`posenc_grader.grade_class` and writes ``results.json``: a test per graded cell
with the error's type and message, never a traceback (which would quote a hidden test), and a written answer as a
test worth 0 of 0 (graded by hand in the outline; in the autograder's maximum its points would count twice).

Sources, from Gradescope's autograder documentation (gradescope-autograders.readthedocs.io, kept in the
repository gradescope/autograder_samples, ``docs/``):

- ``/en/latest/specs/``: the zip (``setup.sh``, ``run_autograder`` at its root), the ``/autograder`` layout,
  the fields of ``results.json`` (``score``, ``execution_time``, ``output``, ``visibility``,
  ``stdout_visibility``, ``extra_data``, ``tests`` with ``score``, ``max_score``, ``name``, ``output``,
  ``visibility``) and the visibilities (``visible``, ``after_due_date``, ``after_published``, ``hidden``);
- ``/en/latest/submission_metadata/``: ``/autograder/submission_metadata.json`` (users, previous results);
- ``/en/latest/base_images/``: the Ubuntu base images (22.04 by default, 18.04 before);
- ``/en/latest/tech/``: one Docker container per submission, started from the image built once;
- ``/en/latest/best_practices/``: the autograder starts as root; run student code as another user, with
  ``source/`` and ``results/`` closed to it (``chmod o=``); always write ``results.json``;
- ``/en/latest/manual_grading/``: questions graded by hand beside the autograder, in the outline.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import traceback
import warnings
import zipfile
from pathlib import Path

import nbformat

from . import grade_class, sandbox
from .course import SOLUTION, Course, grade_id, nbgrader_meta, prepare
from .escapes import disarm
from .feedback import for_student
from .platforms import files_under, is_notebook
from .records import INSTRUCTOR_ONLY, PREPARED, STATUSES, write_json

#: setup.sh and run_autograder, as they go into every zip.
SCRIPTS = Path(__file__).with_name("autograder")
#: When students see the results (Gradescope's values; ``visible``: as soon as they are graded).
VISIBILITIES = ("visible", "after_published", "after_due_date", "hidden")
STUDENT = "submission"  # the one student of a container: results.json names no one
POINTS = re.compile(r"\s*\([^()]*\bpoints?\b[^()]*\)\s*$")  # "(3 points, graded by hand)" after a question
MAX_OUTPUT = 2_000  # characters of a test's output


def lock(repository: Path) -> str:
    """The grader's lock without its editable lines (posenc and posenc-grader, which the zip holds as wheels)."""
    lines = (repository / "requirements" / "grader.txt").read_text(encoding="utf-8").splitlines()
    return "\n".join(line for line in lines if not line.startswith("-e ")) + "\n"


def wheels(repository: Path, dest: Path) -> list[Path]:
    """The wheels of posenc and posenc-grader built from ``repository`` into ``dest`` (pip, no network), their files
    dated 1980-01-01 (``SOURCE_DATE_EPOCH``) as the zip's are."""
    repository = repository.resolve()  # a path pip reads as one: `grader` alone is a name it looks up on PyPI
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                           "--no-index", "--wheel-dir", str(dest), str(repository), str(repository / "grader")],
                          capture_output=True, text=True, env={**os.environ, "SOURCE_DATE_EPOCH": "315532800"})
    if done.returncode != 0:
        raise RuntimeError(f"pip wheel could not build posenc and posenc-grader:\n{done.stderr.strip()}")
    return sorted(dest.glob("*.whl"))


def _add(archive: zipfile.ZipFile, name: str, data: bytes, mode: int = 0o644) -> None:
    """Add a file with a fixed date, so that the same sources make the same zip."""
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.external_attr = (stat.S_IFREG | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, data)


def without_model_answers(path: Path) -> bytes:
    """A source notebook with what lies between the solution markers of each answer cell left out (``...``
    instead; the whole cell where it has no markers): nbgrader makes the same student version and gradebook
    from it, and the autograder needs no model answer."""
    nb = nbformat.read(str(path), as_version=4)
    for cell in nb.cells:
        if nbgrader_meta(cell).get("solution"):
            kept, inside = [], False
            for line in cell.source.split("\n"):
                inside = inside and line.strip() != SOLUTION[1]
                if not inside:
                    kept.append(line)
                if line.strip() == SOLUTION[0]:
                    inside = True
                    kept.append(line[:len(line) - len(line.lstrip())] + "...")
            cell.source = "\n".join(kept) if SOLUTION[0] in cell.source else ""
    return nbformat.writes(nb).encode()


def _write_zip(path: Path, course: Course, assignment: str, built: list[Path], requirements: str,
               visibility: str) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for script in ("setup.sh", "run_autograder"):
            _add(archive, script, (SCRIPTS / script).read_bytes(), 0o755)
        _add(archive, "requirements.txt", requirements.encode())
        for wheel in built:
            _add(archive, f"wheels/{wheel.name}", wheel.read_bytes())
        _add(archive, "course/nbgrader_config.py", course.config_file.read_bytes())
        for file in sorted(p for p in (course.root / "source" / assignment).rglob("*") if p.is_file()):
            relative = file.relative_to(course.root)
            if not any(part.startswith(".") for part in relative.parts):
                data = without_model_answers(file) if file.suffix == ".ipynb" else file.read_bytes()
                _add(archive, f"course/{relative.as_posix()}", data)
        config = {"assignment": assignment, "visibility": visibility}
        _add(archive, "config.json", json.dumps(config, indent=1).encode())
    return path


def build(assignments: list[str], out: Path | str, *, course: Path | str | None = None,
          repository: Path | str | None = None, visibility: str = "visible") -> list[Path]:
    """Write ``out/autograder_<assignment>.zip`` for each assignment; return their paths.

    ``repository`` is the checkout whose posenc and posenc-grader the zips install (by default the
    folder above the course). Raises FileNotFoundError for a missing course or checkout, ValueError for
    an unknown assignment or visibility, RuntimeError for a course with a question left unfinished.
    """
    the_course = Course.find(course)
    repository = Path(repository) if repository is not None else the_course.root.parent
    if not (repository / "grader" / "pyproject.toml").is_file() or not (repository / "pyproject.toml").is_file():
        raise FileNotFoundError(f"no checkout of posenc and posenc-grader at {repository} (pass --repository DIR)")
    if visibility not in VISIBILITIES:
        raise ValueError(f"visibility must be one of {', '.join(VISIBILITIES)}, got {visibility!r}")
    known = the_course.assignments()
    unknown = [a for a in assignments if a not in known]
    if unknown or not assignments:
        raise ValueError(f"no assignment {', '.join(unknown) or '(none given)'} in {the_course.root / 'source'}; "
                         f"there are {', '.join(known)}")
    the_course.refuse_unfinished("write autograders", assignments)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    requirements = lock(repository)
    with tempfile.TemporaryDirectory() as scratch:
        built = wheels(repository, Path(scratch))
        return [_write_zip(out / f"autograder_{a}.zip", the_course, a, built, requirements, visibility)
                for a in assignments]


def _collect(handed_in: Path, dest: Path) -> list[str]:
    """Copy every notebook under ``handed_in`` to ``dest`` (same relative paths); what was left out, and why.

    A link is left out: it could point at the hidden tests, which root, copying, would read.
    """
    dest.mkdir(parents=True, exist_ok=True)
    for path, shown in files_under(handed_in):
        if is_notebook(shown):
            (dest / shown).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, dest / shown)
    return [f"{shown} was not graded: a link, not a file" for _, shown in files_under(handed_in, links=True)
            if is_notebook(shown)]


def questions(release: Path) -> list[tuple[str, str, bool]]:
    """``(grade id, question, written)`` for each graded cell of a student notebook, in order: the question is the
    last ``## `` heading above the cell, without its points; a written answer is an answer cell graded itself."""
    found, question = [], ""
    for cell in nbformat.read(str(release), as_version=4).cells:
        if cell.cell_type == "markdown" and cell.source.startswith("## "):
            question = POINTS.sub("", cell.source.splitlines()[0][3:]).strip()
        meta = nbgrader_meta(cell)
        if meta.get("grade") and grade_id(cell):
            found.append((grade_id(cell), question or grade_id(cell), bool(meta.get("solution"))))
    return found


def scores(out: Path, row: dict) -> dict[str, tuple[float, float]]:
    """``{grade id: (score, max score)}`` of one graded notebook in the class gradebook of ``out``."""
    from nbgrader.api import Gradebook, MissingEntry

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with Gradebook(f"sqlite:///{out / INSTRUCTOR_ONLY / 'gradebook.db'}") as gb:
            try:
                submission = gb.find_submission_notebook(row["notebook"], row["assignment"], row["student"])
            except MissingEntry:
                return {}
            return {g.name: (float(g.score), float(g.max_score)) for g in submission.grades}


def errors(autograded: Path) -> dict[str, str]:
    """``{grade id: "Type: message"}`` for each test cell of an autograded notebook that raised.

    Only the error's type and message: a traceback quotes the code that raised, a hidden test's included.
    """
    if not autograded.is_file():
        return {}
    found = {}
    for cell in nbformat.read(str(autograded), as_version=4).cells:
        raised = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        if grade_id(cell) and raised:
            found[grade_id(cell)] = "\n".join(f"{o.get('ename', 'Error')}: {o.get('evalue', '')}" for o in raised)
    return found


def _shown(text: str) -> str:
    """Text a student will read: cut to :data:`MAX_OUTPUT` characters, control characters written out."""
    text = text if len(text) <= MAX_OUTPUT else text[:MAX_OUTPUT] + " ... (cut)"
    return disarm(text, keep="\n\t")


def results(rows: list[dict], out: Path, visibility: str = "visible", notes: list[str] | None = None) -> dict:
    """Gradescope's ``results.json`` for the rows that :func:`posenc_grader.grade_class` graded into ``out``."""
    tests, auto, most_auto, by_hand, lines = [], 0.0, 0.0, 0.0, []
    release = out / PREPARED / "course" / "release"
    for row in rows:
        graded = scores(out, row)
        autograded = out / INSTRUCTOR_ONLY / "autograded" / row["student"] / row["assignment"]
        raised = errors(autograded / f"{row['notebook']}.ipynb")
        for cell, question, written in questions(release / row["assignment"] / f"{row['notebook']}.ipynb"):
            score, most = graded.get(cell, (0.0, 0.0))
            if written:
                by_hand += most
                tests.append({"name": f"{question} (written answer)", "score": 0.0, "max_score": 0.0,
                              "output": f"Graded by hand on Gradescope, {most:g} points: the autograder gives none.",
                              "visibility": visibility, "extra_data": {"cell": cell, "by_hand": most}})
                continue
            auto, most_auto = auto + score, most_auto + most
            output = raised.get(cell) or ("Passed." if score == most else f"Not scored: {STATUSES[row['status']]}.")
            tests.append({"name": question, "score": score, "max_score": most, "output": _shown(output),
                          "visibility": visibility, "extra_data": {"cell": cell}})
        lines.append(f"{row['notebook']}.ipynb: {row['status']}: {for_student(row['status'], row['message'])}")
    summary = f"{auto:g}/{most_auto:g} autograded" + (f", {by_hand:g} by hand pending" if by_hand else "")
    return {"score": auto, "output": _shown("\n".join([summary, *lines, *(notes or [])])),
            "visibility": visibility, "stdout_visibility": "hidden", "tests": tests,
            "extra_data": {"statuses": {f"{r['notebook']}.ipynb": r["status"] for r in rows},
                           "sandbox": sandbox.kind()}}


def _grade(root: Path, work: Path) -> dict:
    source = root / "source"
    config = json.loads((source / "config.json").read_text(encoding="utf-8"))
    assignment = config["assignment"]
    submissions, out = work / "submissions", work / "out"
    shutil.rmtree(submissions, ignore_errors=True)
    skipped = _collect(root / "submission", submissions / STUDENT / assignment)
    if (source / "prepared").is_dir() and not (out / PREPARED).exists():
        shutil.copytree(source / "prepared", out / PREPARED)
    rows = grade_class(submissions, out, course=source / "course", jobs=1,
                       progress=lambda line: print(line, flush=True))
    return results(rows, out, config.get("visibility", "visible"), skipped)


def run(root: Path = Path("/autograder")) -> dict:
    """Grade ``root/submission`` and write ``root/results/results.json`` (also when grading fails); return it.

    Run as root in Gradescope's container (``run_autograder``). Work files stay in ``root/work``.
    """
    started = time.monotonic()
    results_dir, work = root / "results", root / "work"
    results_dir.mkdir(exist_ok=True)
    work.mkdir(exist_ok=True)
    for folder in (root, root / "source", results_dir, work):  # root's alone: the kernel reads what others may
        if folder.exists():
            folder.chmod(0o700)
    try:
        outcome = _grade(root, work)
    except Exception as error:  # the student still gets a result; the instructor gets the traceback (stdout)
        traceback.print_exc()
        outcome = {"score": 0.0, "output": f"The autograder failed on this submission ({type(error).__name__}); "
                                           "your instructor can see why.", "stdout_visibility": "hidden", "tests": []}
    outcome["execution_time"] = round(time.monotonic() - started)
    write_json(results_dir / "results.json", outcome)
    print(f"wrote {results_dir / 'results.json'}: {outcome['score']:g} points; sandbox: {sandbox.describe()}")
    return outcome


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m posenc_grader.gradescope",
        description="Write one Gradescope autograder per assignment, autograder_<assignment>.zip, to upload to "
                    "a programming assignment of that name (also `make gradescope`).")
    parser.add_argument("assignments", nargs="*", metavar="ASSIGNMENT")
    parser.add_argument("--out", type=Path, metavar="DIR", help="where the zips go")
    parser.add_argument("--course", type=Path, help="the nbgrader course (default: this repository's exercises/)")
    parser.add_argument("--repository", type=Path,
                        help="the checkout of posenc and posenc-grader to install (default: the course's parent)")
    parser.add_argument("--visibility", choices=VISIBILITIES, default="visible",
                        help="when students see the results (Gradescope's setting; default: visible)")
    parser.add_argument("--setup", type=Path, metavar="SOURCE",
                        help="what setup.sh runs in Gradescope's image: prepare the course of the zip in SOURCE")
    parser.add_argument("--run", type=Path, metavar="AUTOGRADER",
                        help="what run_autograder runs in Gradescope's container: grade AUTOGRADER/submission")
    args = parser.parse_args(argv)
    if args.run is not None:
        run(args.run)
        return 0
    if args.setup is not None:
        prepare(Course.find(args.setup / "course"), args.setup / "prepared")  # nbgrader generate_assignment
        return 0
    if args.out is None:
        parser.error("--out DIR is required")
    try:
        written = build(args.assignments, args.out, course=args.course, repository=args.repository,
                        visibility=args.visibility)
    except (FileNotFoundError, ValueError, RuntimeError) as error:
        print(f"posenc_grader.gradescope: {error}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path} ({path.stat().st_size / 2**20:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
