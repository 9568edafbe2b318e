"""The sandbox every student kernel runs in: bubblewrap, with nothing to see, keep or reach outside one folder.

A grading kernel runs the student's code as whoever runs the grader, so it is started inside ``bwrap``
(Debian's ``bubblewrap``) with:

- a read-only view of the system (``/usr``, ``/etc``), of the Python installation and virtual environment
  that run the kernel, and of the ``posenc`` package; nothing else of the machine exists inside: no
  other submission, no course sources (the hidden tests), no output folder, no home directory;
- two writable places, both private: ``private`` (a folder holding a copy of the one submission and the
  kernel's connection file and sockets), bound at the same path inside, and an empty ``/tmp`` (and the
  sandbox's own ``/dev/shm``, which dies with it);
- no network (its own network namespace, loopback only), its own PID, IPC and host-name namespaces,
  no capabilities, and ``--die-with-parent``: when the kernel ends, so does every process it started,
  however detached (the PID namespace dies with its first process).

The grader talks to the kernel over ZeroMQ's ``ipc`` transport (Unix sockets in ``private``): TCP on
the loopback of the sandbox's own network namespace cannot be reached from outside.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

NO_SANDBOX_HINT = "install bubblewrap (apt-get install bubblewrap), or pass --no-sandbox to grade without one"


def _system_mounts() -> list[str]:
    """Read-only binds of the system: ``/usr``, ``/etc``, and ``/bin``, ``/lib``, ... as links or binds."""
    args = ["--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64"):
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    return args


def readable_paths() -> list[str]:
    """What the kernel must read besides the system: Python, the virtual environment, the ``posenc`` package."""
    import posenc

    paths = {os.path.realpath(sys.base_prefix), os.path.realpath(sys.prefix), sys.prefix,
             *(os.path.realpath(p) for p in posenc.__path__)}
    return sorted(p for p in paths if not p.startswith(("/usr/", "/etc/")) and os.path.isdir(p))


def command(private: Path, argv: list[str]) -> list[str]:
    """``argv`` wrapped in ``bwrap``: the sandbox described in this module, working in ``private``."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise RuntimeError(f"no bwrap on PATH: {NO_SANDBOX_HINT}")
    args = [bwrap, "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--die-with-parent",
            "--cap-drop", "ALL", *_system_mounts(), "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    for path in readable_paths():  # after the empty /tmp, so that a checkout or venv under /tmp stays visible
        args += ["--ro-bind", path, path]
    args += ["--bind", str(private), str(private),
             "--chdir", str(private),
             # Inside, the kernel's parent is the sandbox's init (PID 1): tell ipykernel so, or its parent poller
             # takes that for an orphaned kernel and exits. The kernel still dies with the grader (above).
             "--setenv", "JPY_PARENT_PID", "1",
             "--remount-ro", "/"]  # the sandbox's own root, where the mount points were made
    return [*args, "--", *argv]


def environment(threads: dict[str, str]) -> dict[str, str]:
    """The kernel's whole environment: none of the grader's variables (tokens, paths) reach it."""
    return {"PATH": f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp",
            "LANG": "C.UTF-8", "MPLBACKEND": "agg", "MPLCONFIGDIR": "/tmp/matplotlib",
            "PYTHONDONTWRITEBYTECODE": "1", **threads}


@functools.cache
def problem() -> str | None:
    """Why no sandbox can be made here (one line), or None when ``bwrap`` works."""
    if not sys.platform.startswith("linux"):
        return f"the grading sandbox needs Linux (this is {sys.platform}): {NO_SANDBOX_HINT}"
    if shutil.which("bwrap") is None:
        return f"no bwrap found, so student code cannot be sandboxed: {NO_SANDBOX_HINT}"
    with tempfile.TemporaryDirectory(prefix="posenc-sandbox-") as private:
        try:
            done = subprocess.run(command(Path(private), [sys.executable, "-c", "print('ok')"]),
                                  capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired) as error:
            return f"bwrap could not be started ({error}): {NO_SANDBOX_HINT}"
    if done.returncode != 0 or done.stdout.strip() != "ok":
        reason = (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1]
        return f"bwrap is installed but cannot make a sandbox here ({reason}): {NO_SANDBOX_HINT}"
    return None
