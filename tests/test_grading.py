"""Grading a class through the real pipeline: nbgrader autograde, the class gradebook, grades.csv, feedback.

One module-wide run grades, on two cores and in the bubblewrap sandbox: for every assignment one mixed
submission (for every other answer its first wrong solution, for the answers between a correct form of
``tests/chNN/correct_solutions/``, the least used first, so that every kind of form goes through here); for six
assignments one cheat of ``tests/cheats.py`` each, every kind once; and for ``ch04_rotation`` the model answers,
notebooks as Colab saves them, a gallery of bad submissions (each must get a score, a clear status and a message
without stopping the others), and one submission of attacks on the grader and the other students, each of which
must fail inside the sandbox. Scores are read back with nbgrader's own
``Gradebook`` API. tests/test_platforms.py grades the model answers and the blank student version (the sample
class); tests/test_exercises.py runs every answer of every question with the grader's hidden-test code.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import cheats
import grading_kit as kit
import nbformat
import psutil
import pytest
from grading_kit import CLOCKWISE, COURSE, LIMITS, ROTATION, SANDBOXED, grade, printed, read, solved, write

from posenc_grader import Limits, gradescope, samples, sandbox
from posenc_grader.course import HIDDEN_TESTS, answer_files, answer_source
from posenc_grader.escapes import disarm, safe_name, write_csv
from posenc_grader.records import HAND_BACK, INSTRUCTOR_ONLY
from posenc_grader.submissions import Catalog, find_files, triage

pytestmark = pytest.mark.grader

TESTS = Path(__file__).resolve().parent
if not SANDBOXED and os.environ.get("CI") == "true":
    raise RuntimeError(f"CI=true and no grading sandbox: {sandbox.problem()}")
needs_sandbox = pytest.mark.skipif(not SANDBOXED, reason=f"{sandbox.problem()} (`make test` installs bubblewrap "
                                                        "as root on Debian)")
CHEATS = dict(zip(COURSE.assignments(), sorted(cheats.RETURNS), strict=False))  # {assignment: kind}, every kind


def notebooks() -> list[tuple[str, str]]:
    return [(a, n) for a, names in COURSE.assignments().items() for n in names]


def cell_index(nb, grade_id: str) -> int:
    return next(i for i, c in enumerate(nb.cells) if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


def bad_submissions() -> dict[str, tuple[str, object]]:
    """``{student: (file name, notebook or raw text)}``: every way a rotation submission can go wrong."""
    models, wrong = samples.solutions(read("source")), {"ch04_rotation": CLOCKWISE}
    norm = samples.filled(read("release", "ch05_norm", "norm"), samples.solutions(read("source", "ch05_norm", "norm")))
    bad: dict[str, tuple[str, object]] = {"malformed json": ("rotation.ipynb", '{"cells": ['),
                                          "another assignment": ("rotation.ipynb", norm),
                                          "saved by Colab": ("rotation.ipynb", as_colab_saves_it(solved(), True)),
                                          "metadata stripped by Colab": ("rotation.ipynb",
                                                                         as_colab_saves_it(solved(), False))}
    added = {  # student: (a cell added, the cell it follows, or None for the last one; answers replaced)
        "infinite loop": ("while True:\n    pass", None, {}),
        "loop that ignores interrupts": ("", None, {"ch04_rotation": (
            "import time\n\ndef rotation(angle):\n    while True:\n        try:\n            time.sleep(60)\n"
            "        except BaseException:\n            pass")}),
        # wrong, its self-check silenced, and stuck only when a hidden test calls it, after telling the grader that
        # the call's cell is done: the call times out, and the test cell must still score 0
        "stuck only when graded": ("", None, {"ch04_rotation": (
            "import time, traceback\n\ndef check(*args, **kwargs):\n    pass\n\ndef rotation(angle):\n"
            "    if any(frame.name == '_posenc_grader_call' for frame in traceback.extract_stack()):\n"
            "        k = get_ipython().kernel\n"
            "        k.session.send(k.iopub_socket, 'status', {'execution_state': 'idle'},\n"
            "                       parent=k.get_parent('shell'), ident=k._topic('status'))\n"
            "        while True:\n            try:\n                time.sleep(60)\n"
            "            except BaseException:\n                pass\n"
            "    return np.zeros((2, 2))")}),
        "memory bomb": ("blob = bytearray(8 * 1024**3)", "ch04_rotation", {}),
        "gigantic output": ("print('x' * 5_000_000)", None, {}),
        "sys.exit": ("", None, {"ch04_rotation": models["ch04_rotation"] + "\nimport sys\nsys.exit(1)"}),
        "os._exit": ("", None, {"ch04_rotation": models["ch04_rotation"] + "\nimport os\nos._exit(0)"}),
        "patched numpy and math": (
            "import math\nnp.allclose = lambda *a, **k: True\nnp.isclose = lambda *a, **k: True\nnp.testing."
            "assert_allclose = lambda *a, **k: None\nmath.isclose = lambda *a, **k: True", "ch04_code_04", wrong),
        "patched builtins": ("import builtins\nfor name in ('abs', 'round'):\n"
                             "    setattr(builtins, name, lambda *a, **k: 0)", "ch04_code_04", wrong),
        "input transformer": ("get_ipython().input_transformers_post.append(lambda lines: [])", "ch04_rotation", wrong),
        "exception hook": ("get_ipython().set_custom_exc((Exception,), lambda *a, **k: None)", "ch04_rotation", wrong),
        "terminal escapes": (f"import os, sys\nprint({ESCAPES!r})\nprint({ESCAPES!r}, file=sys.stderr)\n"
                             f"os.write(1, {ESCAPE_BYTES!r})\nos.write(2, {ESCAPE_BYTES!r})", "ch04_code_04",
                             {"ch04_rotation": f"def rotation(angle):\n    raise ValueError({ESCAPES!r})"}),
        "José Müller": ("", None, {}),
        "unreadable answers": ("get_ipython().kernel.session.pack = lambda message: b'[' * 200_000", None, {}),
        # right only where the hidden tests' own variables are in sight (were they run in its kernel), then a crash
        # that makes the grader restart the kernel and replay the cells before it
        "replayed hidden tests": ("import os\nos._exit(0)", None, {"ch04_rotation": (
            "import sys\n\ndef rotation(angle):\n    seen = sys._getframe(1).f_locals\n"
            "    if 'c' in seen and 's' in seen:\n"
            "        return np.array([[seen['c'], -seen['s']], [seen['s'], seen['c']]])\n"
            "    return np.zeros((2, 2))")}),
    }
    if SANDBOXED:  # out of the sandbox no process limit holds: the bomb would take the machine down
        added["fork bomb"] = ("", None, {  # a bomb that ignores failed forks, then the plain one
            "ch04_rotation": "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n"
                             + models["ch04_rotation"],
            "ch04_rope_score": "import os\nwhile True:\n    os.fork()\n" + models["ch04_rope_score"]})
    for student, (code, after, answers) in added.items():
        nb = solved(answers)
        if code:
            nb.cells.insert(cell_index(nb, after) + 1 if after else len(nb.cells), nbformat.v4.new_code_cell(code))
        bad[student] = ("rotación (1).ipynb" if student == "José Müller" else "rotation.ipynb", nb)

    def changed(change, answers=None) -> tuple[str, nbformat.NotebookNode]:
        nb = solved(answers)
        change(nb)
        return "rotation.ipynb", nb

    def delete_and_move(nb):
        answer = nb.cells.pop(cell_index(nb, "ch04_rotation"))
        del nb.cells[cell_index(nb, "ch04_rope_score_tests")]
        nb.cells.insert(cell_index(nb, "ch04_code_04") + 1, nbformat.v4.new_code_cell(answer.source))

    def edit_tests(nb):
        nb.cells[cell_index(nb, "ch04_rotation_tests")].source = "pass"

    def duplicate(nb):
        i = cell_index(nb, "ch04_rotation")
        nb.cells.insert(i + 1, nbformat.from_dict(json.loads(json.dumps(nb.cells[i]))))
        nb.cells[i + 1].id = "copied"

    def to_markdown(nb):
        i = cell_index(nb, "ch04_rotation")
        nb.cells[i] = nbformat.v4.new_markdown_cell(nb.cells[i].source, metadata=nb.cells[i].metadata)

    bad["deleted and moved cells"] = changed(delete_and_move)
    bad["edited test cell"] = changed(edit_tests, wrong)
    bad["duplicated cell"] = changed(duplicate)
    bad["answer turned to markdown"] = changed(to_markdown)
    bad["too large"] = changed(lambda nb: nb.cells.append(nbformat.v4.new_markdown_cell("x" * 3_000_000)))

    def paste_an_image(nb):  # as Jupyter saves a pasted image: an attachment of the cell
        cell = nb.cells[cell_index(nb, "ch04_offset_proof")]
        cell.source, cell.attachments = "![image.png](attachment:image.png)", {"image.png": {"image/png": PIXEL}}

    bad["pasted image"] = ("rotation ![a](attachment:gone).ipynb", changed(paste_an_image)[1])  # Markdown in a name
    return bad


def as_colab_saves_it(notebook: nbformat.NotebookNode, keep_nbgrader: bool) -> str:
    """The JSON Colab writes for ``notebook``: nbformat 4.0 (no cell ids), a colab block, an id in each cell's
    metadata, and the cells' nbgrader metadata kept or, by some tools on the way, stripped."""
    saved = json.loads(nbformat.writes(notebook))
    saved["nbformat"], saved["nbformat_minor"] = 4, 0
    saved["metadata"]["colab"] = {"provenance": [], "name": "rotation.ipynb"}
    for cell in saved["cells"]:
        cell.pop("id", None)
        if not keep_nbgrader:
            cell["metadata"].pop("nbgrader", None)
        cell["metadata"]["id"] = secrets.token_urlsafe(9)
    return json.dumps(saved, indent=2)


def mixed_answers() -> dict[tuple[str, str], dict[str, tuple[str, str]]]:
    """``{(assignment, notebook): {answer: (what, code)}}``, the mixed submission of every notebook (see the module):
    ``what`` is "wrong" or names the correct form; the rarest form in the corpus is used first."""
    forms: dict[str, dict[str, str]] = {}
    for key in notebooks():
        for answer in samples.autograded_answers(read("source", *key)):
            for path in answer_files(TESTS, "correct", answer):
                forms.setdefault(path.stem, {})[answer] = answer_source(path, answer)
    used, chosen = dict.fromkeys(forms, 0), {}
    for key in notebooks():
        chosen[key], source = {}, read("source", *key)
        for number, answer in enumerate(samples.autograded_answers(source)):
            if number % 2:
                chosen[key][answer] = ("wrong", next(iter(samples.mistakes(TESTS, source, answer).values()))[1])
                continue
            form = min((f for f in forms if answer in forms[f]), key=lambda f: (used[f], len(forms[f]), f))
            used[form] += 1
            chosen[key][answer] = (form, forms[form][answer])
    return chosen


MIXED = mixed_answers()
MARK = f"posenc-attack-{secrets.token_hex(6)}"  # in the command line of the attack's detached process
SECRET = f"posenc-secret-{secrets.token_hex(8)}"  # in a file only its owner (root, in CI) may read
ESCAPES = "\x1b[2J\x1b[H\x1b]52;c;cG9zZW5jLXBhc3RlZA==\x07\x1b]0;posenc-title\x07\x9b31mred"  # clear, clipboard
ESCAPE_BYTES = b"\x1b[2J\x1b]52;c;cG9zZW5jLXBhc3RlZA==\x07\x9b31m"  # the same as the kernel writes them to fds 1, 2
SECRET_FILES = ("/etc/shadow", "/etc/ssh/ssh_host_ed25519_key", "/etc/ssh/ssh_host_rsa_key")
MALLORY = "mallory\x1b]52;c;cG9zZW5j\x07\x1b[2J"  # a student whose folder name would write to the clipboard
EVE = "eve\t<img src=x onerror=alert(1)>\u202e"  # a tab (the grader's keys join by tabs), markup, right-to-left
LONG = "aaa" + "\u200b" * 80  # 243 bytes, and each invisible character written out takes 6
PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="  # a PNG


ATTACKER = "attacker"


def attacks(root: Path, port: int) -> dict[str, str]:
    """``{attack: code of a cell}``: each attacks the grader or the class from inside the attacker's rotation
    submission, which holds them all (:func:`grading_kit.attack`)."""
    victim, out = root / "submissions" / "perfect", root / "out"
    code = {
        "delete a classmate": f"import shutil\nshutil.rmtree({str(victim)!r})",
        "write into OUT": (f"import glob\nopen({str(out / 'hacked.txt')!r}, 'w').write('x')\n"
                                  f"books = glob.glob({str(out)!r} + '/**/gradebook.db', recursive=True)\n"
                                  "assert books, 'no gradebook in sight'\nopen(books[0], 'wb').write(b'')"),
        "detached process": (
            "import subprocess, sys, time\nsubprocess.Popen([sys.executable, '-c', "
            f"{f'import shutil, time; time.sleep(4); shutil.rmtree({str(victim)!r}); print({MARK!r})'!r}], "
            "start_new_session=True)\ntime.sleep(0.5)\nassert False, 'started, and it must not outlive grading'"),
        "read the hidden tests": (
            f"text = open({str(COURSE.source(*ROTATION))!r}).read()\nassert 'BEGIN HIDDEN TESTS' in text"),
        "open a socket": (
            f"import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=3).sendall(b'hello')"),
        "read a root-only file": (
            f"import os\nprint('ids', os.getuid(), os.getgid(), os.getgroups())\nstolen = []\n"
            f"for path in {[str(root / 'secret' / 'root-only.txt'), *SECRET_FILES]!r}:\n"
            "    try:\n        stolen.append(open(path).read())\n    except OSError as error:\n        print(error)\n"
            "print(*stolen)\nassert stolen or 0 in (os.getuid(), os.getgid()), 'nothing read, and not root'"),
        "read the environment": kit.READ_ENVIRONMENT,
        # unshare(CLONE_NEWUSER): root of a namespace of its own, the kernel has an attack surface, a way out of limits
        "make a user namespace": (  # from a child: a process of many threads, as the kernel is, may make none
            "import subprocess, sys\nchild = 'import ctypes; print(ctypes.CDLL(None).unshare(0x10000000))'\n"
            "said = subprocess.run([sys.executable, '-c', child], capture_output=True, text=True)\n"
            "assert said.stdout.split() == ['0'], said.stderr or 'refused'"),
        "fill the memory through /tmp": ("for folder in ('/tmp', '/dev/shm'):\n    for n in range(6):\n"
                                         "        with open(f'{folder}/fill{n}', 'wb') as f:\n"
                                         "            f.write(bytes(60 * 2**20))"),
    }
    # the markers of hidden tests in a cell of the student's: their code must run in the kernel like the rest
    hacked = str(out / "hacked.txt")
    smuggled = (f"ran_in_kernel = False\n{HIDDEN_TESTS[0]}\nran_in_kernel = True\ntry:\n"
                f"    open({hacked!r}, 'w').write('x')\n    wrote = 'wrote into OUT'\nexcept OSError as error:\n"
                f"    wrote = repr(error)\n{HIDDEN_TESTS[1]}\nprint('ATTACK hidden markers: ' + (f'failed ({{wrote}})' "
                "if ran_in_kernel and wrote != 'wrote into OUT' else 'succeeded'))")
    return {**{name: kit.attack(name, text) for name, text in code.items()}, "hidden markers": smuggled}


@contextlib.contextmanager
def grader_terminal():
    """Catch what this process and its children write to stdout and stderr (file descriptors 1 and 2)
    inside the block: the list yielded holds that text once the block has ended."""
    written: list[str] = []
    with tempfile.TemporaryFile() as terminal:
        sys.stdout.flush(), sys.stderr.flush()
        saved = [os.dup(1), os.dup(2)]
        os.dup2(terminal.fileno(), 1)
        os.dup2(terminal.fileno(), 2)
        try:
            yield written
        finally:
            sys.stdout.flush(), sys.stderr.flush()
            for fd, copy in zip((1, 2), saved, strict=True):
                os.dup2(copy, fd)
                os.close(copy)
            terminal.seek(0)
            written.append(terminal.read().decode("utf-8", errors="replace"))


@pytest.fixture(scope="module")
def graded(tmp_path_factory, prepared_course):
    """Grade the whole gallery once; return the output folder and the rows by (student, assignment, notebook)."""
    root = tmp_path_factory.mktemp("grading")
    submissions = root / "submissions"
    for assignment, notebook in notebooks():
        source, release = read("source", assignment, notebook), read("release", assignment, notebook)
        folder = submissions / "{}" / assignment / f"{notebook}.ipynb"
        write(Path(str(folder).format("mixed")), samples.filled(release, {
            answer: code for answer, (_, code) in MIXED[(assignment, notebook)].items()}))
        if assignment in CHEATS:
            write(Path(str(folder).format(f"cheat-{CHEATS[assignment]}")),
                  cheats.submission(CHEATS[assignment], source, release))
    for student, (name, content) in bad_submissions().items():
        write(submissions / student / ROTATION[0] / name, content)
    write(submissions / "perfect" / ROTATION[0] / "rotation.ipynb", solved())
    write(submissions / "perfect" / ROTATION[0] / "rotation-old.ipynb", read("release"))
    for name, text in (("timestamp.txt", "2026-12-05 10:00:00 UTC"), ("submission_secret.txt", secrets.token_hex())):
        (submissions / "perfect" / ROTATION[0] / name).write_text(text)  # as nbgrader's exchange collects them
    for student in ("only a pdf", MALLORY, EVE, LONG):
        (submissions / student / ROTATION[0]).mkdir(parents=True)
        (submissions / student / ROTATION[0] / "answers.pdf").write_bytes(b"%PDF-1.4")
    server = socket.create_server(("127.0.0.1", 0))
    server.setblocking(False)
    nb = solved()
    nb.cells += [nbformat.v4.new_code_cell(code) for code in attacks(root, server.getsockname()[1]).values()]
    nb.cells.append(nbformat.v4.new_code_cell(  # last: the kernel dies, and the grader writes the file again
        f"import os\nos.remove('kernel.json')\nos.symlink({str(root / 'secret' / 'root-only.txt')!r}, 'kernel.json')"
        "\nos._exit(1)"))
    write(submissions / ATTACKER / ROTATION[0] / "rotation.ipynb", nb)

    def others() -> dict[Path, bytes | None]:  # every folder and file (its bytes) of the attacker's classmates
        return {p: p.read_bytes() if p.is_file() else None for p in submissions.rglob("*")
                if p.relative_to(submissions).parts[0] != ATTACKER}

    before = others()
    (root / "secret").mkdir(mode=0o700)
    (root / "secret" / "root-only.txt").write_text(SECRET)
    (root / "secret" / "root-only.txt").chmod(0o600)
    lines = []
    with grader_terminal() as terminal:
        os.environ[kit.ENV_NAME] = kit.ENV_SECRET  # reaches the workers when their fork server starts in this run
        try:
            rows = grade(submissions, root / "out", prepared_course, progress=lines.append)
        finally:
            del os.environ[kit.ENV_NAME]
    try:
        server.accept()
        reached = True
    except BlockingIOError:
        reached = False
    server.close()
    after = {"others": others() == before,
             "socket reached": reached,
             "alive": [p.info["pid"] for p in psutil.process_iter(["pid", "cmdline"]) if MARK in " ".join(
                 p.info["cmdline"] or [])],
             "terminal": "".join(terminal)}
    return root, {(r["student"], r["assignment"], r["notebook"]): r for r in rows}, lines, after


@pytest.mark.parametrize("assignment,notebook", notebooks())
def test_wrong_answers_lose_their_points_and_correct_answers_written_differently_keep_theirs(graded, assignment,
                                                                                           notebook):
    out, rows, _, _ = graded
    scores = gradescope.scores(out / "out", rows[("mixed", assignment, notebook)])
    message = rows[("mixed", assignment, notebook)]["message"]
    for answer, (what, _) in MIXED[(assignment, notebook)].items():
        score, most = scores[f"{answer}_tests"]
        if what == "wrong":
            assert score < most, f"{answer}: its wrong solution got full marks"
        else:
            assert score == most > 0, f"{answer} with the {what} answer lost points: {message}"


EXPECTED = {  # student: (status, score of the 6 autograded points, words the message must contain)
    "malformed json": ("unreadable", 0, "not a Jupyter notebook"),
    "another assignment": ("wrong_notebook", 0, "ch05_norm/norm.ipynb"),
    "deleted and moved cells": ("repaired", 6, "missing"),
    "edited test cell": ("repaired", 3, "edited"),
    "infinite loop": ("timeout", 6, "limit"),
    "loop that ignores interrupts": ("timeout", 3, "limit"),
    "stuck only when graded": ("timeout", 3, "limit"),
    "memory bomb": ("memory", 6, "memory"),
    "gigantic output": ("ok", 6, "cut"),
    "sys.exit": ("ok", 6, ""),
    "os._exit": ("crashed", 3, "killed the kernel"),
    "patched numpy and math": ("flagged", 3, "np.allclose"),
    "patched builtins": ("flagged", 3, "builtins"),
    "input transformer": ("tampered", 0, "must fail"),
    "exception hook": ("flagged", 3, "get_ipython"),
    "José Müller": ("ok", 6, "'rotación (1).ipynb' graded as rotation.ipynb"),
    "saved by Colab": ("ok", 6, ""),
    "metadata stripped by Colab": ("repaired", 6, "lost its nbgrader metadata"),
    "duplicated cell": ("repaired", 6, "copy"),
    "answer turned to markdown": ("repaired", 6, "turned back"),
    "too large": ("too_large", 0, "MB"),
    "only a pdf": ("missing", 0, "no file"),
    "terminal escapes": ("ok", 3, ""),
    "pasted image": ("ok", 6, "graded as rotation.ipynb"),
    "replayed hidden tests": ("crashed", 3, "killed the kernel"),
    "unreadable answers": ("crashed", 6, "killed the kernel"),
}


@pytest.mark.parametrize("student", sorted(EXPECTED))
def test_bad_submission_gets_a_score_a_status_and_a_message(graded, student):
    _, rows, _, _ = graded
    status, score, words = EXPECTED[student]
    row = rows[(student, *ROTATION)]
    assert (row["status"], row["score"]) == (status, score) and words in row["message"], row["message"]
    assert row["max_score"] == 12  # 6 autograded + 6 by hand (two written proofs)


def test_nbgraders_exchange_releases_the_page_of_a_submission_it_collected(graded, tmp_path):
    out = graded[0] / "out"
    command = [sys.executable, "-m", "nbgrader", "release_feedback", ROTATION[0], "--student=perfect",
               f"--CourseDirectory.feedback_directory={out / HAND_BACK / 'feedback'}", f"--Exchange.root={tmp_path}"]
    released = subprocess.run(command, cwd=out / INSTRUCTOR_ONLY, capture_output=True, text=True)
    assert released.returncode == 0, released.stderr
    page = out / HAND_BACK / "feedback" / "perfect" / ROTATION[0] / "rotation.html"
    assert [p.read_text() for p in (tmp_path / "where-words-are" / "feedback").glob("*.html")] == [page.read_text()]


def test_a_second_file_for_the_same_notebook_is_named_and_not_graded(graded):
    _, rows, _, _ = graded
    row = rows[("perfect", *ROTATION)]
    assert row["score"] == 6 and "rotation-old.ipynb" in row["message"]


@pytest.mark.parametrize("assignment", sorted(CHEATS))
def test_answers_that_read_the_graders_values_score_zero_everywhere(graded, assignment):
    out, rows, _, _ = graded
    student, notebook = f"cheat-{CHEATS[assignment]}", COURSE.assignments()[assignment][0]
    row = rows[(student, assignment, notebook)]
    assert row["score"] == 0 and row["max_score"] > 0, row["message"]  # no point on any cell
    page = (out / "out" / HAND_BACK / "feedback" / student / assignment / f"{notebook}.html").read_text(
        encoding="utf-8")
    assert "returned an Anything" in page or CHEATS[assignment] in ("ndarray", "found_at_call")


@needs_sandbox
@pytest.mark.parametrize("attack", ["delete a classmate", "write into OUT", "detached process", "read the hidden tests",
                                    "open a socket", "read a root-only file", "read the environment",
                                    "make a user namespace", "hidden markers", "fill the memory through /tmp"])
def test_an_attack_from_a_submission_fails_inside_the_sandbox(graded, attack):
    root, rows, _, after = graded
    said = printed(root / "out", ATTACKER)
    assert f"ATTACK {attack}: failed" in said and f"ATTACK {attack}: succeeded" not in said, said  # the
    # detached process starts (its cell then fails on purpose): what it would do later is checked by "alive" and
    # "others" below
    assert rows[(ATTACKER, *ROTATION)]["score"] == 6, rows[(ATTACKER, *ROTATION)]["message"]
    assert after["others"], "a submission of another student changed during grading"
    assert not (root / "out" / "hacked.txt").exists()
    assert not after["socket reached"], "a kernel reached a server on the grader's loopback"
    assert after["alive"] == [], "a process started by a submission outlived its grading"


@needs_sandbox
def test_a_connection_file_the_kernel_turned_into_a_link_hands_the_grader_no_file(graded):
    """Its folder is the kernel's: a link there in place of its connection file must not make the grader, on a
    restart, give the kernel's user (or write into) the file it points to."""
    root, rows, _, _ = graded
    secret = root / "secret" / "root-only.txt"
    assert (secret.stat().st_uid, secret.stat().st_mode & 0o777, secret.read_text()) == (os.getuid(), 0o600, SECRET)
    assert rows[(ATTACKER, *ROTATION)]["status"] == "crashed", rows[(ATTACKER, *ROTATION)]["message"]


@needs_sandbox
def test_the_kernel_is_a_user_with_no_privilege_and_no_group(graded):
    root, _, _, _ = graded
    uid, gid, groups = kit.kernel_ids(printed(root / "out", ATTACKER))
    assert uid == gid >= sandbox.UID_BASE > 0 and groups == "[]", (uid, gid, groups)


@needs_sandbox
@pytest.mark.skipif(os.geteuid() != 0, reason="only a grader run by root has a file that root alone may read")
def test_a_file_only_root_may_read_stays_unreadable_in_the_kernels_own_folder(tmp_path):
    """As root the grader could read anything; the kernel, the sandbox's user, not even its own folder's files."""
    sandbox.hand_over(tmp_path)
    (tmp_path / "secret.txt").write_text(SECRET)
    (tmp_path / "secret.txt").chmod(0o600)
    argv = sandbox.command(tmp_path, [sys.executable, "-c", "print(open('secret.txt').read())"])
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "PermissionError" in done.stderr, done.stderr
    assert SECRET not in done.stdout + done.stderr


@needs_sandbox
def test_no_secret_reaches_any_output_file_or_the_graders_terminal(graded):
    root, _, lines, after = graded
    found = [SECRET, *kit.machine_secrets()]
    for path in (root / "out").rglob("*"):
        if path.is_file():
            content = path.read_bytes()
            assert not [s for s in found if s.encode() in content], path
    assert not [s for s in found if s in after["terminal"] or s in "\n".join(lines)]


@needs_sandbox
def test_a_fork_bomb_stops_at_the_process_limit_and_scores_zero(graded):
    _, rows, _, _ = graded
    row = rows[("fork bomb", *ROTATION)]
    assert row["score"] == 0 and row["status"] in ("timeout", "crashed"), row["message"]
    assert "ran past the limit" in row["message"] and row["seconds"] < LIMITS.notebook_timeout, row


def test_escape_sequences_reach_neither_the_graders_terminal_nor_an_output_file(graded):
    root, _, lines, after = graded
    assert not {"\x1b", "\x9b"} & set(after["terminal"] + "".join(lines))
    for path in (root / "out").rglob("*"):  # JSON writes ESC as \u001b; a feedback page shows it as text
        if path.is_file() and path.suffix != ".db":  # a gradebook's pages hold any byte, as numbers too
            assert b"\x1b" not in path.read_bytes(), path
    page = (root / "out" / HAND_BACK / "feedback" / "terminal escapes" / ROTATION[0] / "rotation.html").read_text()
    assert "\x9b" not in page and "\\x1b]52;c;" in page  # the kernel's output, shown as text


def test_a_name_or_a_field_that_would_break_a_row_a_page_or_a_spreadsheet_is_made_safe(graded, tmp_path):
    out, rows, _, _ = graded
    (name,) = [student for student, *_ in rows if student.startswith("eve")]
    assert not {"\t", "<", ">", "\u202e"} & set(name) and name == safe_name(name), name
    assert name in (out / "out" / "grades.csv").read_text(encoding="utf-8")
    write_csv(tmp_path / "formulas.csv", [["=1+1", "@SUM(A1)", "-2", "+3", "ok"]])
    assert (tmp_path / "formulas.csv").read_text() == "'=1+1,'@SUM(A1),'-2,'+3,ok\n"


def test_progress_lines_show_escape_sequences_in_names_as_text(graded):
    """What the grader prints is these lines (they hold no escape at all: the test above)."""
    out, _, lines, _ = graded
    shown = "mallory\\x1b]52;c;cG9zZW5j\\x07\\x1b[2J"
    assert shown in "\n".join(lines) and shown in (out / "out" / "grades.csv").read_text(encoding="utf-8")


@needs_sandbox
def test_grading_refuses_to_run_without_a_sandbox_unless_told(tmp_path):
    (tmp_path / "submissions" / "x" / ROTATION[0]).mkdir(parents=True)
    environment = {**os.environ, "PATH": str(Path(sys.executable).parent)}  # where no bwrap is
    command = [sys.executable, "-m", "posenc_grader", str(tmp_path / "submissions"), "--out", str(tmp_path / "out")]
    refused = subprocess.run(command, capture_output=True, text=True, env=environment, timeout=120)
    assert refused.returncode == 2
    assert refused.stderr.count("\n") == 1 and "--no-sandbox" in refused.stderr and "bwrap" in refused.stderr
    assert not (tmp_path / "out").exists()


@needs_sandbox
def test_a_python_that_lives_under_tmp_still_runs_in_the_sandbox(tmp_path, monkeypatch):
    """The sandbox's /tmp is empty, yet a venv or checkout under /tmp (where a CI clone may live) stays visible:
    its read-only binds are made after the empty /tmp is mounted."""
    venv = Path(tempfile.mkdtemp(prefix="posenc-venv-", dir="/tmp"))
    venv.chmod(0o755)  # as a venv is made, for any user (mkdtemp's folder is its owner's alone)
    try:
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
        readable = sandbox.readable_paths()
        monkeypatch.setattr(sandbox, "readable_paths", lambda: [*readable, str(venv)])
        sandbox.hand_over(tmp_path)
        argv = sandbox.command(tmp_path, [str(venv / "bin" / "python"), "-c", "print('inside')"])
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        assert done.stdout.strip() == "inside", done.stderr
    finally:
        shutil.rmtree(venv)


def test_the_grader_compiles_what_every_kernel_imports_before_any_kernel_starts(tmp_path, monkeypatch):
    """Kernels write no bytecode (a read-only installation): the grader writes it first, outside the sandbox. Sent
    to an empty cache prefix, it holds ipykernel's, numpy's and every module of posenc."""
    import ipykernel.kernelapp
    import numpy

    import posenc

    monkeypatch.setenv("PYTHONPYCACHEPREFIX", str(tmp_path))
    sandbox.compile_kernel_imports()
    modules = [Path(ipykernel.kernelapp.__file__), Path(numpy.__file__),
               *Path(posenc.__path__[0]).rglob("*.py")]
    missing = [str(m) for m in modules
               if not any((tmp_path / m.resolve().parent.relative_to("/")).glob(m.stem + ".*.pyc"))]
    assert len(modules) > 20 and missing == []


def kernels_below(pid: int) -> list[psutil.Process]:
    """The kernels (ipykernel) that process ``pid`` is or started; none while a process among them cannot be read."""
    with contextlib.suppress(psutil.Error):
        top = psutil.Process(pid)
        return [p for p in [top, *top.children(recursive=True)] if p.cmdline()[1:3] == ["-m", "ipykernel_launcher"]]
    return []


def test_a_kernel_that_dies_while_starting_is_started_again(tmp_path):
    from nbclient.util import run_sync

    from posenc_grader.execute import GradingExecute

    class FirstKernelDies(GradingExecute):
        killed: list[int] = []

        async def async_start_new_kernel(self, **kwargs):
            await super().async_start_new_kernel(**kwargs)
            for _ in range(0 if self.killed else 6000):  # the first kernel dies as soon as it runs (not bwrap: killed
                if kernels := kernels_below(self.km.provisioner.process.pid):  # while it makes the sandbox, it may
                    kernels[0].kill()  # leave the sandbox running, with the kernel, which then answers)
                    self.killed.append(kernels[0].pid)
                    break
                await asyncio.sleep(0.01)
        start_new_kernel = run_sync(async_start_new_kernel)

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(6 * 7)")])
    nb.metadata.kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    (tmp_path / "private").mkdir()
    executor = FirstKernelDies(private_dir=str(tmp_path / "private"), sandboxed=SANDBOXED, startup_timeout=60)
    done, _ = executor.preprocess(nb, {"metadata": {"path": str(tmp_path)}})
    assert len(executor.killed) == 1
    assert [e["kind"] for e in executor.events][:1] == ["kernel_retry"]
    assert done.cells[0].outputs[0]["text"] == "42\n"


def _orphan(workdir: Path) -> dict:
    """A grading (for parallel.run) that leaves behind a process whose parent has ended, as bwrap killed while it
    starts (before it has asked to die with its parent) leaves its sandbox."""
    started = subprocess.run(["sh", "-c", "sleep 60 >/dev/null 2>&1 & echo $!"], capture_output=True, text=True)
    return {"orphan": int(started.stdout)}


def test_a_process_orphaned_while_grading_ends_with_its_worker(tmp_path):
    from posenc_grader import parallel

    results = []
    parallel.run([{}], _orphan, tmp_path, jobs=1, timeout=60, memory_bytes=2**32,
                 done=lambda task, result, seconds: results.append(result))
    assert not psutil.pid_exists(results[0]["orphan"])  # killed and reaped by the worker, which adopted it


def _stuck_with_a_temporary_folder(workdir: Path) -> dict:
    """A grading that makes a temporary folder (as a kernel's private one) and then outlasts its time limit."""
    (workdir / "made").write_text(tempfile.mkdtemp())
    subprocess.run(["sleep", "60"])
    return {}


def test_the_temporary_files_of_a_worker_killed_at_its_time_limit_are_removed(tmp_path):
    from posenc_grader import parallel

    results = []
    parallel.run([{}], _stuck_with_a_temporary_folder, tmp_path, jobs=1, timeout=3, memory_bytes=2**32,
                 done=lambda task, result, seconds: results.append(result))
    made = Path((tmp_path / "0" / "made").read_text())
    assert results[0]["killed"] and made.parent.name.startswith("posenc-") and not made.parent.exists()


def test_every_row_has_one_line_in_grades_csv_a_feedback_page_and_a_progress_line(graded):
    out, rows, lines, _ = graded
    with open(out / "out" / "grades.csv", encoding="utf-8") as f:
        table = list(csv.DictReader(f))
    assert sorted((r["student"], r["assignment"], r["notebook"]) for r in table) == sorted(  # MALLORY's name disarmed
        (disarm(student), *rest) for student, *rest in rows)
    for student, assignment, notebook in rows:
        page = out / "out" / HAND_BACK / "feedback" / student / assignment / f"{notebook}.html"
        assert page.is_file() and page.stat().st_size < 1_000_000, page
    assert sum(line.startswith("[") for line in lines) == len(rows)


def test_a_notebook_that_outlasts_its_time_limit_is_stopped_and_scored(prepared_course, tmp_path):
    slow = ("import time\n\ndef rotation(angle):\n    time.sleep(3)\n"
            "    return np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])")
    write(tmp_path / "submissions" / "slow" / ROTATION[0] / "rotation.ipynb", solved({"ch04_rotation": slow}))
    write(tmp_path / "submissions" / "fine" / ROTATION[0] / "rotation.ipynb", solved())
    limits = Limits(cell_timeout=60, notebook_timeout=12)  # slow needs 18 s or more
    rows = {r["student"]: r for r in grade(tmp_path / "submissions", tmp_path / "out", prepared_course, limits=limits)}
    assert (rows["slow"]["status"], rows["slow"]["score"]) == ("timeout", 0)
    assert "did not finish within 12 s" in rows["slow"]["message"]
    assert rows["fine"]["status"] == "ok"


def test_grading_again_from_the_command_line_changes_nothing(graded, tmp_path):
    from nbgrader.api import Gradebook

    out, rows, _, _ = graded
    before = (out / "out" / "grades.csv").read_text(encoding="utf-8")
    again = tmp_path / "again"
    for student in ("perfect", "José Müller", "malformed json", "os._exit"):
        # one notebook each (their rotation notebook): the rows graded again, and all the others, must not change
        shutil.copytree(out / "submissions" / student / ROTATION[0], again / student / ROTATION[0])
    db = f"sqlite:///{out / 'out' / INSTRUCTOR_ONLY / 'gradebook.db'}"
    with Gradebook(db) as gb:
        counts = (len(gb.students), sum(len(a.submissions) for a in gb.assignments))
    result = subprocess.run(
        [sys.executable, "-m", "posenc_grader", str(again), "--out", str(out / "out"), "--jobs", "2",
         "--cell-timeout", str(LIMITS.cell_timeout), "--notebook-timeout", str(LIMITS.notebook_timeout),
         "--memory-mb", str(LIMITS.memory_mb), "--max-file-mb", str(LIMITS.max_file_mb)],
        capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert (out / "out" / "grades.csv").read_text(encoding="utf-8") == before
    with Gradebook(db) as gb:
        assert (len(gb.students), sum(len(a.submissions) for a in gb.assignments)) == counts


def test_a_symbolic_link_in_the_submissions_is_refused_never_followed(tmp_path):
    """A link could hand in another student's notebook, or one only the grader may read: every kind is named
    as unreadable, the real file beside it is graded, and a dangling link breaks nothing."""
    submissions, release = tmp_path / "submissions", COURSE.root / "release"
    alice = submissions / "alice" / ROTATION[0]
    alice.mkdir(parents=True)
    shutil.copy(release / ROTATION[0] / f"{ROTATION[1]}.ipynb", alice)
    links = {"mallory": (submissions / "mallory" / ROTATION[0] / "rotation.ipynb", alice / "rotation.ipynb"),
             "bob": (submissions / "bob" / ROTATION[0], alice),
             "carol": (submissions / "carol" / ROTATION[0] / "rotation.ipynb", tmp_path / "gone.ipynb"),
             "eve": (submissions / "eve", alice.parent)}
    for link, target in links.values():
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(target)
    rows = triage(find_files(submissions), Catalog(release), 2**20)
    status = {row.student: row.status for row in rows if row.status != "missing"}
    assert status == {"alice": "ok", "bob": "unreadable", "carol": "unreadable", "eve": "unreadable",
                      "mallory": "unreadable"}
    assert all("symbolic link" in " ".join(row.notes) for row in rows if row.status == "unreadable")



def test_a_tab_or_newline_in_a_folder_or_file_name_reaches_no_row_key(tmp_path):
    """Rows are kept under their names joined by tabs: a name holding one broke every later run into that OUT."""
    submissions, release = tmp_path / "submissions", COURSE.root / "release"
    for folder, name in (("my\twork", "x\ty.ipynb"), (ROTATION[0], "rot\nation.ipynb"), ("a\tb", None)):
        (submissions / "eve" / folder).mkdir(parents=True)
        if name:
            (submissions / "eve" / folder / name).write_text("not json")
    rows = triage(find_files(submissions), Catalog(release), 2**20)
    assert len(rows) == 2 and not any(char in part for row in rows for part in row.key for char in "\t\n")
