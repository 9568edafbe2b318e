"""The processes a grading kernel leaves running after a cell: found from ``/proc``, and killed.

A cell may start processes that outlive it: a pool, a detached server, the copies of a fork bomb. In
the sandbox, ``bwrap`` starts the sandbox's init (PID 1 inside), whose first child is the kernel (run by root,
through a second, unprivileged ``bwrap`` whose one child is the kernel); any other process there
descends from the kernel or is an orphan the init adopted. Killed, a child of the
kernel stays a zombie until the kernel waits for it, which a student's kernel need not do: it still
counts towards the kernel's process limit, but runs no more.
"""

from __future__ import annotations

import os
import shutil
import time

import psutil

from .reaper import children, descendants, kill

ENDED = (psutil.STATUS_ZOMBIE, psutil.STATUS_DEAD)


def _state(pid: int) -> tuple[float, str]:
    """When process ``pid`` started, and its status (a zombie's once it has ended)."""
    try:
        process = psutil.Process(pid)
        return process.create_time(), process.status()
    except psutil.NoSuchProcess:
        return float("inf"), psutil.STATUS_DEAD


def _through_bwrap(pid: int) -> int:
    """``pid``, or the process below it where ``pid`` is a ``bwrap`` (the root-run sandbox's second layer): the
    kernel. Told by the program it runs, which the kernel cannot change without ceasing to be the kernel."""
    bwrap = shutil.which("bwrap")
    while bwrap is not None:
        try:
            if psutil.Process(pid).exe() != os.path.realpath(bwrap):
                break
        except psutil.Error:
            break
        below = sorted(children(pid), key=_state)
        if not below:
            break
        pid = below[0]
    return pid


def leftovers(launched: int, sandboxed: bool) -> list[int]:
    """The pids of the processes that run besides the kernel started as ``launched`` (a pid).

    Unsandboxed, ``launched`` is the kernel itself; in the sandbox it is ``bwrap`` (see the module).
    """
    if sandboxed:
        inits = children(launched)
        adopted = sorted(children(inits[0]), key=_state) if inits else []
        kernel, others = [_through_bwrap(pid) for pid in adopted[:1]], adopted[1:]
    else:
        kernel, others = [launched], []
    found = others + [below for pid in kernel + others for below in descendants(pid)]
    return [pid for pid in found if _state(pid)[1] not in ENDED]


def stop_leftovers(launched: int, sandboxed: bool, rounds: int = 5) -> bool:
    """Kill the :func:`leftovers` of ``launched``, again while new ones appear; False if some still run."""
    for _ in range(rounds):
        found = leftovers(launched, sandboxed)
        if not found:
            return True
        kill(found)
        time.sleep(0.1)
    return not leftovers(launched, sandboxed)
