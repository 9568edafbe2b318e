"""The two processes above a student kernel in the in-container sandbox of :mod:`posenc_grader.sandbox`.

``python -I -S reaper.py COMMAND...``, run by root, runs ``COMMAND`` (which becomes the kernel's user and
then the kernel) in the shape bubblewrap gives a kernel, so that the grader finds and stops what a cell
leaves behind in the same way (:mod:`posenc_grader.processes`): the process started waits for an *init*
below it, whose first child is the kernel. The init

- adopts every process that the kernel's processes orphan (``PR_SET_CHILD_SUBREAPER``), so that nothing
  the kernel starts can leave the tree below it, and reaps them;
- leads a session of its own, outside the process group that the kernel's manager kills;
- when the kernel ends, or the process above it dies (``PR_SET_PDEATHSIG``, which the manager's kill
  brings about), kills every process below it before it exits.

Both processes are root's, so the kernel's user can signal neither. The process started dies with the
grader, as ``bwrap --die-with-parent`` does. Only the standard library is used (``-S``).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import time
import traceback

PR_SET_PDEATHSIG, PR_SET_CHILD_SUBREAPER = 1, 36


def prctl(option: int, value: int) -> None:
    """Linux's ``prctl(option, value)``; OSError when it fails."""
    if ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"prctl({option}, {value}): {os.strerror(errno)}")


def children(pid: int) -> list[int]:
    """The children of process ``pid``, read from ``/proc``: each of its threads lists those it started."""
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as listed:
                found += [int(child) for child in listed.read().split()]
    except OSError:  # the process, or one of its threads, has just ended
        pass
    return found


def descendants(pid: int) -> list[int]:
    """Every process below ``pid``."""
    found, frontier = [], [pid]
    while frontier:
        below = children(frontier.pop())
        found += below
        frontier += below
    return found


def kill(pids: list[int]) -> None:
    """SIGKILL each process of ``pids``; one that has ended already is no error."""
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def clear(rounds: int = 100) -> None:
    """Kill every process below this one, again while some remain (a fork between two rounds), and reap them."""
    for _ in range(rounds):
        found = descendants(os.getpid())
        kill(found)
        with contextlib.suppress(ChildProcessError):  # every child that has ended, orphans included
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        if not found:
            return
        time.sleep(0.01)


def init(command: list[str], above: int) -> int:
    """Run ``command`` as this init's first child; return its exit status once nothing is left below."""
    os.setsid()
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    try:
        if os.getppid() != above:  # the process above died before the signal was asked for
            return 128 + signal.SIGTERM
        kernel = os.fork()
        if kernel == 0:
            try:
                os.execv(command[0], command)
            except OSError as error:
                print(f"reaper: cannot run {command[0]}: {error}", file=sys.stderr)
            os._exit(127)
        while True:
            pid, status = os.wait()
            if pid == kernel:
                return exit_code(status)
    except SystemExit as stop:  # SIGTERM: the process above has died
        return int(stop.code)
    finally:
        clear()


def exit_code(status: int) -> int:
    """A shell's exit code for a wait status: the process's own, or 128 plus the signal that ended it."""
    code = os.waitstatus_to_exitcode(status)
    return code if code >= 0 else 128 - code


def main(command: list[str]) -> int:
    """Start the init below this process and wait for it: the shape of a kernel in bubblewrap."""
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    above = os.getpid()
    child = os.fork()
    if child == 0:
        try:
            code = init(command, above)
        except BaseException:  # noqa: B036 -- the init's child process must end here, whatever happened
            traceback.print_exc()
            code = 1
        os._exit(code)
    return exit_code(os.waitpid(child, 0)[1])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
