"""Gradescope's autograder (:mod:`posenc_grader.gradescope`), run as Gradescope runs it, held against ``make grade``.

The zip of ``ch04_rotation`` is built once and checked as it is. Then an *image* is made from it as Gradescope
makes one (its installation steps, which would install this very environment, left out), and each submission is
graded in a *container* of its own: a fresh copy of the image at ``/autograder`` in a bubblewrap sandbox whose
root keeps Docker's default capabilities only, so that bubblewrap cannot run inside, as in Gradescope's
containers. The submissions are graded by :func:`posenc_grader.grade_class` too, and every score must agree, cell
for cell. ``benchmarks/gradescope.py`` does the same for a whole class.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import cheats
import grading_kit as kit
import jsonschema
import nbformat
import pytest
from conftest import hidden_lines
from grading_kit import CLOCKWISE, COURSE, ROOT, ROTATION, grade, printed, read, solved, write

from posenc_grader import Limits, gradescope, sandbox
from posenc_grader.course import HIDDEN_TESTS, SOLUTION, grade_id, nbgrader_meta, same_notebooks

pytestmark = pytest.mark.grader

ASSIGNMENT, NOTEBOOK = ROTATION
HIDDEN = f"/autograder/source/course/source/{ASSIGNMENT}/{NOTEBOOK}.ipynb"  # the hidden tests, in the container
VENV_PYTHON = "/opt/posenc-grader/bin/python"  # where setup.sh installs, and run_autograder runs
OUTLIVED = "posenc-outlived"  # what a process left behind by a cell would write into /tmp a second later
#: Docker's default capabilities of a container's root (moby's defaults): no CAP_SYS_ADMIN, no namespaces.
DOCKER_CAPABILITIES = ("CHOWN", "DAC_OVERRIDE", "FSETID", "FOWNER", "MKNOD", "NET_RAW", "SETGID", "SETUID", "SETFCAP",
                       "SETPCAP", "NET_BIND_SERVICE", "SYS_CHROOT", "KILL", "AUDIT_WRITE")
#: The container's environment: this checkout's sources first (Gradescope's has its installed wheels).
ENVIRONMENT = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/root", "LANG": "C.UTF-8",
               "PYTHONPATH": f"{ROOT / 'src'}:{ROOT / 'grader' / 'src'}", kit.ENV_NAME: kit.ENV_SECRET}
needs_root = pytest.mark.skipif(os.geteuid() != 0 or shutil.which("bwrap") is None or sandbox.problem() is not None,
                                reason="the container is a bubblewrap sandbox that root starts, and make grade's "
                                       "bubblewrap sandbox grades beside it (`make test` runs as root in CI)")

VISIBILITY = {"enum": ["hidden", "after_due_date", "after_published", "visible"]}
#: results.json as Gradescope's specification documents it (gradescope-autograders.readthedocs.io/en/latest/specs/):
#: no field of another name, a top-level score or a score on every test.
SCHEMA = {
    "type": "object", "additionalProperties": False,
    "properties": {
        "score": {"type": "number"}, "execution_time": {"type": "number"}, "output": {"type": "string"},
        "visibility": VISIBILITY, "stdout_visibility": VISIBILITY, "extra_data": {"type": "object"},
        "leaderboard": {"type": "array"},
        "tests": {"type": "array", "items": {
            "type": "object", "additionalProperties": False,
            "properties": {"score": {"type": "number"}, "max_score": {"type": "number"}, "name": {"type": "string"},
                           "number": {"type": "string"}, "output": {"type": "string"},
                           "tags": {"type": "array", "items": {"type": "string"}}, "visibility": VISIBILITY,
                           "extra_data": {"type": "object"}}}}},
    "anyOf": [{"required": ["score"]}, {"required": ["tests"], "properties": {"tests": {"items": {
        "required": ["score"]}}}}],
}

#: The attacker's cells in the container: its kernel's ids printed; attacks, each of which must fail
#: (:func:`grading_kit.attack`); last, a process left behind that would write into /tmp a second later.
ATTACKS = [
    "import os\nprint('ids', os.getuid(), os.getgid(), os.getgroups())",
    *(kit.attack(name, code) for name, code in {
        "read the hidden tests": f"print(len(open({HIDDEN!r}).read()))",
        "list /autograder": "import os\nprint(os.listdir('/autograder'))",
        "write the results": "open('/autograder/results/results.json', 'w').write('{\"score\": 100}')",
        "read the submission's metadata": "print(open('/autograder/submission_metadata.json').read())",
        "read a root-only file": "print(open('/etc/shadow').read())",
        "read the grader's environment": kit.READ_ENVIRONMENT}.items()),
    "import subprocess, sys\nsubprocess.Popen([sys.executable, '-c', \"import time; time.sleep(1); "
    f"open('/tmp/{OUTLIVED}', 'w').write('x')\"], start_new_session=True)"]


@pytest.fixture(scope="module")
def submissions() -> dict[str, tuple[str, nbformat.NotebookNode]]:
    """``{student: (file name, notebook)}``: the submissions graded both ways."""
    # the hidden tests, as the message its test would show (the marker is split: written whole in a student's
    # cell, the grader takes it for a hidden-tests region and cuts the rest of the cell away)
    marker = HIDDEN_TESTS[0]
    leak = (f"def rope_score(q, k, m, n, theta):\n"
            f"    raise RuntimeError(open({HIDDEN!r}).read().split({marker[:10]!r} + {marker[10:]!r})[1][:1000])")
    attacker = solved({"ch04_rope_score": leak})
    attacker.cells += [nbformat.v4.new_code_cell(code) for code in ATTACKS]
    return {
        "perfect": ("My homework.ipynb", solved()),
        "wrong": (f"{NOTEBOOK} (1).ipynb", solved({"ch04_rotation": CLOCKWISE})),
        "cheat": (f"{NOTEBOOK}.ipynb", cheats.submission("frames", read("source"), read("release"))),
        "attack": (f"{NOTEBOOK}.ipynb", attacker),
    }


EXPECTED = {"perfect": 6, "wrong": 3, "cheat": 0, "attack": 3}  # of 6 autograded points (a blank: as the cheat, 0)


# ---- the container: Gradescope's /autograder, root with Docker's capabilities, no bubblewrap inside --------------

def _mirror(path: str) -> list[str]:
    if os.path.islink(path):
        return ["--symlink", os.readlink(path), path]
    return ["--ro-bind", path, path] if os.path.exists(path) else []


def container(autograder: Path, tmp: Path, command: list[str]) -> subprocess.CompletedProcess:
    """Run ``command`` as Gradescope runs ``run_autograder``: root with Docker's default capabilities only, in
    ``/autograder`` (a bind of ``autograder``), ``tmp`` as ``/tmp``, this checkout's Python also at
    ``/opt/posenc-grader`` (where setup.sh installs)."""
    base = os.path.realpath(sys.base_prefix)
    args = ["bwrap", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--die-with-parent", "--new-session",
            "--ro-bind", "/usr", "/usr"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64"):
        args += _mirror(top)
    # /tmp first: a checkout or a Python under /tmp is bound into it afterwards, not hidden by it
    args += ["--bind", str(tmp), "/tmp", "--ro-bind", "/etc", "/etc", *sandbox.bind("--ro-bind", base),
             *sandbox.bind("--ro-bind", sys.prefix), *sandbox.bind("--ro-bind", os.path.realpath(sys.prefix)),
             *sandbox.bind("--ro-bind", sys.prefix, "/opt/posenc-grader"),
             *sandbox.bind("--ro-bind", str(ROOT)), "--proc", "/proc", "--dev", "/dev",
             "--bind", str(autograder), "/autograder", "--chdir", "/autograder", "--cap-drop", "ALL"]
    for capability in DOCKER_CAPABILITIES:
        args += ["--cap-add", f"CAP_{capability}"]
    return subprocess.run([*args, "--", *command], env=ENVIRONMENT, capture_output=True, text=True, timeout=900)


def image(zip_path: Path, folder: Path) -> Path:
    """``/autograder`` as Gradescope builds it from ``zip_path``: the zip in ``source/``, ``run_autograder`` beside
    it, and setup.sh's last step done (the course prepared); the folder that holds it."""
    source = folder / "autograder" / "source"
    source.mkdir(parents=True)
    with zipfile.ZipFile(zip_path) as archive:
        archive.extractall(source)
    for script in ("setup.sh", "run_autograder"):
        (source / script).chmod(0o755)
    shutil.copy2(source / "run_autograder", folder / "autograder" / "run_autograder")
    (folder / "tmp").mkdir(mode=0o1777)
    (folder / "tmp").chmod(0o1777)
    done = container(folder / "autograder", folder / "tmp",
                     [VENV_PYTHON, "-P", "-m", "posenc_grader.gradescope", "--setup", "/autograder/source"])
    assert done.returncode == 0, done.stderr[-3000:]
    return folder / "autograder"


def submit(built: Path, files: dict[str, nbformat.NotebookNode | str], folder: Path,
           links: dict[str, str] | None = None, command: list[str] | None = None) -> dict:
    """Grade ``files`` (notebooks, or raw text) and ``links`` (names to targets) in a fresh container of ``built``:
    its ``results`` (results.json), ``stdout`` (what Gradescope keeps for instructors), ``root`` and ``tmp``."""
    root, tmp = folder / "autograder", folder / "tmp"
    shutil.copytree(built, root, symlinks=True)
    (root / "submission").mkdir()
    (root / "results").mkdir()
    tmp.mkdir()
    tmp.chmod(0o1777)
    for name, content in files.items():
        write(root / "submission" / name, content)
    for name, target in (links or {}).items():
        (root / "submission" / name).symlink_to(target)
    metadata = {"id": 123456, "created_at": "2026-12-01T14:22:32.365935-07:00",
                "assignment": {"title": ASSIGNMENT, "total_points": "12.0", "submission_method": "upload"},
                "users": [{"email": "student@example.com", "id": 1234, "name": "Student User"}],
                "previous_submissions": []}
    (root / "submission_metadata.json").write_text(json.dumps(metadata))
    done = container(root, tmp, command or ["/autograder/run_autograder"])
    results = root / "results" / "results.json"
    return {"results": json.loads(results.read_text()) if results.is_file() else None,
            "stdout": done.stdout + done.stderr, "root": root, "tmp": tmp}


# ---- the runs -------------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def autograder_zip(tmp_path_factory) -> Path:
    with contextlib.chdir(ROOT):  # `--repository .`: pip once read its `grader` as a name, and took PyPI's
        (path,) = gradescope.build([ASSIGNMENT], tmp_path_factory.mktemp("zips"), course=COURSE.root,
                                   repository=Path("."))
    return path


@pytest.fixture(scope="module")
def built(autograder_zip, tmp_path_factory) -> Path:
    return image(autograder_zip, tmp_path_factory.mktemp("image"))


@pytest.fixture(scope="module")
def runs(built, submissions, tmp_path_factory) -> dict[str, dict]:
    """Each submission graded in a container of its own, two at a time; and, under ``refused``, the blank
    notebook graded by ``--run`` without run_autograder's permission of the in-container sandbox."""
    folder = tmp_path_factory.mktemp("gradescope")
    jobs = {student: ({name: notebook}, {"answers.ipynb": HIDDEN} if student == "attack" else None, None)
            for student, (name, notebook) in submissions.items()}
    jobs["refused"] = ({f"{NOTEBOOK}.ipynb": read("release")}, None,
                       [VENV_PYTHON, "-P", "-m", "posenc_grader.gradescope", "--run", "/autograder"])
    with ThreadPoolExecutor(2) as pool:
        done = pool.map(lambda item: submit(built, item[1][0], folder / item[0], item[1][1], item[1][2]), jobs.items())
        return dict(zip(jobs, done, strict=True))


@pytest.fixture(scope="module")
def made_grade(submissions, tmp_path_factory, prepared_course) -> tuple[Path, dict[str, dict]]:
    """The same notebooks graded by ``make grade`` (grade_class, bubblewrap): its output folder and its rows."""
    root = tmp_path_factory.mktemp("make-grade")
    for student, (name, notebook) in submissions.items():
        write(root / "submissions" / student / ASSIGNMENT / name, notebook)
    rows = grade(root / "submissions", root / "out", prepared_course, limits=Limits(), sandboxed=True)
    return root / "out", {row["student"]: row for row in rows}


def disagreements(results: dict, row: dict, host: dict[str, tuple[float, float]]) -> list[str]:
    """How Gradescope's ``results`` and ``make grade`` (its ``row`` and the cells ``host`` of its gradebook) differ
    on one notebook: each cell's score and maximum (a written answer: 0 and its points by hand), the total,
    the status and the message; empty when they agree."""
    problems = []
    for test in results["tests"]:
        cell, extra = test["extra_data"]["cell"], test["extra_data"]
        got = (0.0, extra["by_hand"]) if "by_hand" in extra else (test["score"], test["max_score"])
        if got != host.get(cell) or ("by_hand" in extra and test["max_score"] != 0):
            problems.append(f"{cell}: {got} on Gradescope, {host.get(cell)} by make grade")
    if {test["extra_data"]["cell"] for test in results["tests"]} != set(host):
        problems.append(f"cells: {sorted(t['extra_data']['cell'] for t in results['tests'])} against {sorted(host)}")
    if results["score"] != row["score"]:
        problems.append(f"total: {results['score']:g} on Gradescope, {row['score']:g} by make grade")
    if results["extra_data"]["statuses"] != {f"{row['notebook']}.ipynb": row["status"]}:
        problems.append(f"status: {results['extra_data']['statuses']} against {row['status']}")
    if row["message"] not in results["output"]:
        problems.append(f"message: {results['output']!r} lacks {row['message']!r}")
    return problems


# ---- the zip, as it is ----------------------------------------------------------------------------------------------

def test_the_zip_holds_the_hidden_tests_and_no_model_answer(autograder_zip):
    with zipfile.ZipFile(autograder_zip) as archive:
        shipped = nbformat.reads(archive.read(f"course/source/{ASSIGNMENT}/{NOTEBOOK}.ipynb").decode(), as_version=4)
    source = read("source")
    assert len(shipped.cells) == len(source.cells)
    for ours, theirs in zip(source.cells, shipped.cells, strict=True):
        if not nbgrader_meta(ours).get("solution"):
            assert theirs == ours  # the hidden tests with the rest
            continue
        model = ours.source.split(SOLUTION[0])[1].split(SOLUTION[1])[0] if SOLUTION[0] in ours.source else ours.source
        assert not {line.strip() for line in model.splitlines() if line.strip()} & {
            line.strip() for line in theirs.source.splitlines()}, grade_id(ours)


def test_the_zip_holds_gradescopes_scripts_the_graders_lock_this_releases_wheels_and_its_assignment(autograder_zip):
    lock = (ROOT / "requirements" / "grader.txt").read_text()
    version = re.search(r'^version = "(.+?)"', (ROOT / "grader" / "pyproject.toml").read_text(), re.M)[1]
    with zipfile.ZipFile(autograder_zip) as archive:
        modes = {info.filename: info.external_attr >> 16 for info in archive.infolist()}
        config, requirements = json.loads(archive.read("config.json")), archive.read("requirements.txt").decode()
        setup, run = archive.read("setup.sh").decode(), archive.read("run_autograder").decode()
    assert modes["setup.sh"] & 0o111 and modes["run_autograder"] & 0o111  # executable, at the root
    assert config == {"assignment": ASSIGNMENT, "visibility": "visible"}
    assert modes.keys() == {"setup.sh", "run_autograder", "requirements.txt", "config.json",
                            "course/nbgrader_config.py", f"course/source/{ASSIGNMENT}/{NOTEBOOK}.ipynb",
                            *(f"wheels/{name}-{version}-py3-none-any.whl" for name in ("posenc", "posenc_grader"))}
    pins = re.compile(r"^[A-Za-z0-9_.\-]+==\S+", re.M)
    assert set(pins.findall(requirements)) == set(pins.findall(lock)) and len(pins.findall(lock)) > 100
    assert "-e " not in requirements and "torch==" in requirements  # the lock pins what the kernel offers students
    install = " ".join(setup.split("pip install", 1)[1].split("\n/opt", 1)[0].split())
    assert "--no-deps" in install and "--requirement requirements.txt wheels/*.whl" in install, install
    assert f"{VENV_PYTHON.removesuffix('/bin/python')}" in setup and f"exec {VENV_PYTHON} " in run
    assert setup.rstrip().endswith(f"{VENV_PYTHON} -m posenc_grader.gradescope --setup /autograder/source")
    assert "POSENC_GRADER_FALLBACK=setpriv" in run and "--run /autograder" in run
    for script in (setup, run):
        assert subprocess.run(["bash", "-n"], input=script, text=True).returncode == 0


# ---- graded in Gradescope's containers ------------------------------------------------------------------------------

@needs_root
def test_the_image_makes_the_same_student_version_from_the_zip(built):
    """What setup.sh did in the image (nbgrader generate_assignment) is the committed student version."""
    assert same_notebooks(built / "source" / "prepared" / "course" / "release" / ASSIGNMENT / f"{NOTEBOOK}.ipynb",
                          COURSE.root / "release" / ASSIGNMENT / f"{NOTEBOOK}.ipynb")


@needs_root
def test_results_follow_gradescopes_documented_schema(runs):
    for run in runs.values():
        assert run["results"] is not None, run["stdout"][-3000:]
        jsonschema.validate(run["results"], SCHEMA)


@needs_root
@pytest.mark.parametrize("student", EXPECTED)
def test_gradescope_and_make_grade_agree_cell_for_cell(runs, made_grade, student):
    out, rows = made_grade
    results = runs[student]["results"]
    assert disagreements(results, rows[student], gradescope.scores(out, rows[student])) == []
    assert results["score"] == EXPECTED[student] and len(results["tests"]) == 4, results["output"]


@needs_root
def test_written_answers_are_left_to_hand_grading_on_gradescope(runs):
    """Their scores (0 of 0, the points by hand in extra_data) are checked against make grade's above."""
    results = runs["perfect"]["results"]
    assert all("by hand" in t["output"] for t in results["tests"] if "by_hand" in t["extra_data"])
    assert results["output"].startswith("6/6 autograded, 6 by hand pending\n")
    assert "'My homework.ipynb' graded as rotation.ipynb" in results["output"]


@needs_root
def test_the_kernel_ran_in_the_in_container_sandbox_as_a_user_of_its_own(runs):
    for student in EXPECTED:
        assert runs[student]["results"]["extra_data"]["sandbox"] == "setpriv"
        assert "sandbox: setpriv, the in-container sandbox" in runs[student]["stdout"]
    uid, gid, groups = kit.kernel_ids(printed(runs["attack"]["root"] / "work" / "out", "submission"))  # its make grade
    assert uid == gid >= sandbox.UID_BASE and groups == "[]", (uid, gid, groups)


@needs_root
def test_an_attack_on_autograder_fails_inside_the_container(runs):
    run = runs["attack"]
    said = printed(run["root"] / "work" / "out", "submission")
    attacks = [line for line in said.splitlines() if line.startswith("ATTACK ")]
    assert len(attacks) == 6 and all(": failed (" in line for line in attacks), attacks
    assert not (run["tmp"] / OUTLIVED).exists(), "a process started by a cell outlived it"
    tests = {t["extra_data"]["cell"]: t for t in run["results"]["tests"]}
    assert "PermissionError: [Errno 13] Permission denied" in tests["ch04_rope_score_tests"]["output"]
    assert run["results"]["score"] == 3 and "answers.ipynb was not graded: a link" in run["results"]["output"]


@needs_root
def test_no_hidden_test_and_no_secret_reaches_the_results_or_the_output(runs):
    leaks = [*hidden_lines(read("source")), HIDDEN_TESTS[0], *kit.machine_secrets()]
    assert len(hidden_lines(read("source"))) > 10
    for student, run in runs.items():
        shown = json.dumps(run["results"], ensure_ascii=False) + run["stdout"]
        assert not [text for text in leaks if text in shown], student


@needs_root
def test_without_run_autograders_permission_the_container_refuses_to_grade(runs):
    run = runs["refused"]
    assert run["results"]["score"] == 0 and run["results"]["tests"] == []
    assert "failed" in run["results"]["output"] and "refusing to grade: bwrap" in run["stdout"]


@needs_root
def test_the_in_container_sandbox_is_not_chosen_where_bubblewrap_runs():
    environment = {**os.environ, sandbox.FALLBACK: "setpriv"}
    done = subprocess.run([sys.executable, "-c", "from posenc_grader import sandbox; print(sandbox.kind())"],
                          env=environment, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "bubblewrap", done.stderr
