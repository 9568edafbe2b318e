"""Running gradings side by side, each in a process of its own that cannot take the others down.

Each task runs in a child forked from a clean *fork server* that has already imported nbgrader (so the
import is paid once per run, and no thread of the calling process is copied into the children), with
its own address-space limit, its output sent to a log file, and its result written to a JSON file. A
child that dies, runs out of memory or passes the time limit is killed with everything it started (its
kernel included) and reported as an error for that task alone; the other tasks carry on. A child adopts
every process that those it started orphan (:mod:`posenc_grader.reaper`'s subreaper: a sandbox whose ``bwrap``
was killed as it started, before it had asked to die with it), and kills them all before it ends.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import resource
import shutil
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterable
from multiprocessing.connection import wait
from pathlib import Path

from . import reaper


def _child(work: Callable[..., dict], task: dict, folder: Path, memory_bytes: int, tmp: str) -> None:
    tempfile.tempdir = tmp  # its temporary files (a kernel's private folder) go where the parent removes them
    log = os.open(folder / "log.txt", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    if sys.platform == "linux":  # what the processes it starts orphan comes to it (see the module)
        reaper.prctl(reaper.PR_SET_CHILD_SUBREAPER, 1)
    try:
        result = work(**task, workdir=folder)
    except BaseException:  # noqa: B036 -- the child reports every failure, whatever it is, to the parent
        result = {"error": traceback.format_exc(limit=-4).strip()}
    reaper.clear()
    (folder / "result.json").write_text(json.dumps(result), encoding="utf-8")


PRELOAD = ["posenc_grader.worker", "posenc_grader.execute", "nbgrader.apps", "nbconvert.exporters"]


def run(tasks: Iterable[dict], work: Callable[..., dict], scratch: Path, *, jobs: int, timeout: float,
        memory_bytes: int, done: Callable[[dict, dict, float], None]) -> None:
    """Call ``work(**task, workdir=scratch/<n>)`` in a child process for every task, ``jobs`` at a time, then
    ``done(task, result, seconds)``.

    ``work`` must be a module-level function and the tasks picklable. ``result`` is what ``work`` returned, or
    ``{"error": ...}`` when the child failed, died or ran past ``timeout`` seconds.
    """
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    pending = list(enumerate(tasks))
    running: dict[int, tuple[dict, Path, multiprocessing.Process, float]] = {}
    while pending or running:
        while pending and len(running) < jobs:
            number, task = pending.pop(0)
            folder = scratch / str(number)
            folder.mkdir(parents=True)
            tmp = tempfile.mkdtemp(prefix="posenc-")  # short: a Unix socket's path has at most 107 characters
            os.chmod(tmp, 0o711)  # entered, never listed, by a kernel that is another user (the private folder's)
            process = context.Process(target=_child, args=(work, task, folder, memory_bytes, tmp), daemon=True)
            process.start()
            running[process.sentinel] = (task, folder, process, time.monotonic(), tmp)
        wait(list(running), timeout=0.5)
        for sentinel, (task, folder, process, started, tmp) in list(running.items()):
            elapsed = time.monotonic() - started
            if process.exitcode is None and elapsed < timeout:
                continue
            if process.exitcode is None:
                reaper.kill([*reaper.descendants(process.pid), process.pid])
                result = {"error": f"the notebook did not finish within {timeout:g} s and was stopped; nothing "
                                   "in it could be graded", "events": [], "killed": True}
            else:
                result = _read_result(folder, process.exitcode)
            process.join()
            shutil.rmtree(tmp, ignore_errors=True)  # also what a killed child could not remove
            del running[sentinel]
            done(task, result, elapsed)


def _read_result(folder: Path, exitcode: int) -> dict:
    try:
        return json.loads((folder / "result.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        log = folder / "log.txt"
        tail = "\n".join(log.read_text(errors="replace").strip().splitlines()[-8:]) if log.exists() else ""
        return {"error": f"the grading process ended with exit code {exitcode} and no result\n{tail}".strip()}
