"""The sandbox every student kernel runs in: bubblewrap, with nothing to see, keep or reach outside one folder.

What the kernel sees and may do is in the instructor guide (*Grading a class*, and its threat model); here, how:
:func:`_bwrap_command` spells it out as ``bwrap``'s options.

The kernel is a user of its own, uid and gid ``UID_BASE`` plus the grading process's pid, with no groups and no
capabilities. Run by root, the grader starts ``bwrap`` as root and the kernel switches to that user with
``setpriv``: a user namespace would map it onto root, whose files it could then read. That user then enters,
through a second, unprivileged ``bwrap`` that shows it the same tree, a user namespace of its own in which it
cannot make another (``--disable-userns``; left out where the machine lets no unprivileged user make one, as the
user could not either). Run by anyone else, the kernel gets that uid in such a namespace directly.

The grader talks to the kernel over ZeroMQ's ``ipc`` transport (Unix sockets in the private folder): TCP on the
loopback of the sandbox's network namespace cannot be reached from outside. The kernel's resource limits are set
by ``prlimit`` inside the sandbox (:func:`posenc_grader.execute.limited`).

**Inside a container**, where bubblewrap cannot make namespaces and the grader is root, :func:`kind` is
``"setpriv"`` only where ``POSENC_GRADER_FALLBACK=setpriv`` permits it: the weaker sandbox of the guide's *Grading
on Gradescope*, below an init of :mod:`posenc_grader.reaper`. :func:`describe` says which sandbox runs.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

NO_SANDBOX_HINT = "install bubblewrap (apt-get install bubblewrap), or pass --no-sandbox to grade without one"
#: The environment variable that permits the in-container sandbox where bubblewrap cannot run (see the module).
FALLBACK = "POSENC_GRADER_FALLBACK"
#: What the kernel sees of ``/etc``: the dynamic loader's cache and search path, the time zone, fontconfig's setup.
ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "fonts")
#: The sandbox's user: getpass and the like read these variables first, so no ``/etc/passwd`` is needed.
USER = "student"
#: Start of the sandbox users' ids; systemd's table of id ranges leaves 1879048192-2147352575 unused.
UID_BASE = 0x7000_0000
#: The size of each of the kernel's ``/tmp`` and ``/dev/shm``: they are held in memory, outside its memory limit.
TMPFS_BYTES = 256 * 2**20


def uid() -> int:
    """The uid (and gid) of the kernels this process starts: RLIMIT_NPROC then counts their tasks alone."""
    return UID_BASE + os.getpid()


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise RuntimeError(f"no {name} on PATH: {NO_SANDBOX_HINT}")
    return path


def bind(option: str, path: str, dest: str | None = None) -> list[str]:
    """bwrap's ``option`` (``--bind``, ``--ro-bind``) for ``path`` at ``dest`` (by default the same place), after
    folders for its parents that anyone may enter (bwrap would make them for root alone, closed to the sandbox's
    user)."""
    dest = dest or path
    parents = [str(parent) for parent in reversed(Path(dest).parents) if parent != Path("/")]
    return [*(arg for parent in parents for arg in ("--dir", parent)), option, path, dest]


def _system_mounts() -> list[str]:
    """Read-only ``/usr``, ``/bin``, ``/lib``, ..., and of ``/etc`` only :data:`ETC`, each where it exists."""
    paths = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", *(f"/etc/{name}" for name in ETC)]
    return ["--dir", "/etc", *(arg for path in paths for arg in ("--ro-bind-try", path, path))]


def _package() -> list[str]:
    """The folders of the ``posenc`` package that the grader imports."""
    import posenc

    return [os.path.realpath(p) for p in posenc.__path__]


def readable_paths() -> list[str]:
    """What the kernel must read besides the system: Python, the virtual environment, the ``posenc`` package."""
    paths = {os.path.realpath(sys.base_prefix), os.path.realpath(sys.prefix), sys.prefix, *_package()}
    return sorted(p for p in paths if not p.startswith(("/usr/", "/etc/")) and os.path.isdir(p))


@functools.cache
def _bwrap_knows(option: str) -> bool:
    """Whether this ``bwrap`` has ``option`` (``--disable-userns`` came with bubblewrap 0.8)."""
    return option in subprocess.run([_tool("bwrap"), "--help"], capture_output=True, text=True).stdout


def _own_user_namespace() -> list[str]:
    """bwrap's options that put the kernel, as the sandbox's user, in a user namespace it cannot nest."""
    user = str(uid())
    nested = ["--disable-userns"] if _bwrap_knows("--disable-userns") else []
    return ["--unshare-user", "--uid", user, "--gid", user, *nested, "--cap-drop", "ALL"]


def _as_user() -> list[str]:
    """``setpriv``, run by root, making what it runs the sandbox's user with no groups and no capabilities."""
    user = str(uid())
    return [_tool("setpriv"), f"--reuid={user}", f"--regid={user}", "--clear-groups", "--inh-caps=-all",
            "--bounding-set=-all"]


def _identity() -> tuple[list[str], list[str]]:
    """bwrap's options, and the command put before the kernel's, that make the kernel the sandbox's user."""
    if os.geteuid() != 0:
        return _own_user_namespace(), []
    # setpriv keeps these capabilities only until it has changed user, and empties every capability set.
    keep = [option for cap in ("CAP_SETUID", "CAP_SETGID", "CAP_SETPCAP") for option in ("--cap-add", cap)]
    switch = [*_as_user(), "--"]
    if _unprivileged_userns():
        # --dev-bind: bwrap mounts a plain --bind without devices, where /dev/null and /dev/urandom (which torch
        # opens on import) would be refused
        switch += [_tool("bwrap"), *_own_user_namespace(), "--die-with-parent", "--dev-bind", "/", "/", "--"]
    return ["--cap-drop", "ALL", *keep], switch


@functools.cache
def _unprivileged_userns() -> bool:
    """Whether a user other than root may make a user namespace on this machine (a sysctl, or AppArmor, may
    forbid it): then the root-run sandbox adds a layer that takes that power from the kernel."""
    return subprocess.run([*_as_user(), "--", _tool("unshare"), "--user", "true"], capture_output=True).returncode == 0


def hand_over(path: Path) -> None:
    """Let the sandbox's user use ``path`` (the private folder, the connection file) when the grader is root.

    The owner becomes the sandbox's user; a folder keeps the grader's group, through which ``bwrap``, root
    without capabilities, enters it. Run by anyone else, the kernel is the grader's user outside: nothing to do.
    """
    if os.geteuid() == 0:
        os.chown(path, uid(), -1, follow_symlinks=False)
        if path.is_dir() and not path.is_symlink():
            path.chmod(0o770)


def command(private: Path, argv: list[str]) -> list[str]:
    """``argv`` wrapped in the sandbox of :func:`kind` (see the module), working in ``private``.

    When the grader is root, ``private`` must have been handed over (:func:`hand_over`).
    """
    return _setpriv_command(argv) if kind() == "setpriv" else _bwrap_command(private, argv)


def _setpriv_command(argv: list[str]) -> list[str]:
    """``argv`` as the sandbox's user, below the init of :mod:`posenc_grader.reaper` (run by root)."""
    reaper = str(Path(__file__).with_name("reaper.py"))
    # JPY_PARENT_PID=1, as in bubblewrap: the kernel's parent is the init, not the grader (see _bwrap_command)
    return [sys.executable, "-I", "-S", reaper, *_as_user(), "--no-new-privs", "--", _tool("env"), "JPY_PARENT_PID=1",
            *argv]


def _bwrap_command(private: Path, argv: list[str]) -> list[str]:
    """``argv`` wrapped in ``bwrap``, working in ``private``."""
    options, switch = _identity()
    size = ["--size", str(TMPFS_BYTES)] if _bwrap_knows("--size") else []  # bubblewrap 0.7 and later
    args = [_tool("bwrap"), "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--new-session",
            "--die-with-parent", *options, *_system_mounts(), "--proc", "/proc", "--dev", "/dev",
            "--perms", "01777", *size, "--tmpfs", "/dev/shm", "--perms", "01777", *size, "--tmpfs", "/tmp"]
    for path in readable_paths():  # after the empty /tmp, so that a checkout or venv under /tmp stays visible
        args += bind("--ro-bind", path)
    args += [*bind("--bind", str(private)),
             "--chdir", str(private),
             # Inside, the kernel's parent is the sandbox's init (PID 1): tell ipykernel so, or its parent poller
             # takes that for an orphaned kernel and exits. The kernel still dies with the grader (above).
             "--setenv", "JPY_PARENT_PID", "1",
             "--remount-ro", "/"]  # the sandbox's own root, where the mount points were made
    return [*args, "--", *switch, *argv]


def environment(threads: dict[str, str]) -> dict[str, str]:
    """The kernel's whole environment: none of the grader's variables (tokens, paths) reach it.

    Its ``PYTHONPATH`` leads to the ``posenc`` the grader imports where that is outside the Python
    installation (a checkout's ``src/``, which another checkout's editable install would hide).
    """
    prefixes = tuple(os.path.realpath(p) + os.sep for p in (sys.prefix, sys.base_prefix))
    outside = sorted({os.path.dirname(p) for p in _package() if not p.startswith(prefixes)})
    return {"PATH": f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp",
            "USER": USER, "LOGNAME": USER, "LANG": "C.UTF-8", "MPLBACKEND": "agg", "MPLCONFIGDIR": "/tmp/matplotlib",
            "PYTHONDONTWRITEBYTECODE": "1", **({"PYTHONPATH": os.pathsep.join(outside)} if outside else {}), **threads}


def compile_kernel_imports() -> None:
    """Write, here outside the sandbox, the bytecode of what every grading kernel imports: ipykernel, numpy and
    the ``posenc`` package. A kernel writes none (:func:`environment`; its view of the installation is read-only),
    so where an installer left those modules uncompiled (``pip --no-compile``, as the Makefile installs; uv by
    default) every kernel would compile them again as it starts, about half a second each. Where the bytecode
    is there already, this costs one interpreter start. Only a saving: where it fails, grading goes on (a kernel
    that cannot import these fails, and is reported, for its own notebook)."""
    code = ("import compileall, ipykernel.ipkernel, ipykernel.kernelapp, numpy, posenc\n"
            "compileall.compile_dir(posenc.__path__[0], quiet=1)")
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": ""}  # empty: Python writes bytecode
    with contextlib.suppress(subprocess.TimeoutExpired):
        subprocess.run([sys.executable, "-c", code], env=env, check=False, capture_output=True, timeout=600)


@functools.cache
def kind() -> str:
    """The sandbox that kernels run in: ``"bubblewrap"``, or ``"setpriv"`` where bubblewrap cannot make one, the
    grader is root, and ``POSENC_GRADER_FALLBACK=setpriv`` permits the weaker sandbox (see the module)."""
    permitted = os.environ.get(FALLBACK) == "setpriv" and os.geteuid() == 0
    return "setpriv" if permitted and _bwrap_problem() is not None else "bubblewrap"


def describe() -> str:
    """One line for the grader's output: which sandbox the kernels run in, and what it leaves open."""
    if kind() == "bubblewrap":
        return ("bubblewrap: each kernel is an unprivileged user of its own, sees the system, the Python environment "
                "and its own folder, and has no network")
    return (f"setpriv, the in-container sandbox (bubblewrap cannot run here; {FALLBACK}=setpriv permits it): each "
            "kernel is an unprivileged user of its own with no groups and no capabilities, under prlimit's limits, "
            "and nothing it starts outlives it; it reads every file that any user may read, and has the network")


@functools.cache
def problem() -> str | None:
    """Why no sandbox can be made here (one line), or None when the sandbox of :func:`kind` works."""
    if kind() == "bubblewrap":
        return _bwrap_problem()
    return _probe(lambda _, argv: _setpriv_command(argv), "the in-container sandbox (setpriv)",
                  ["setpriv", "prlimit", "env"])


@functools.cache
def _bwrap_problem() -> str | None:
    """Why bubblewrap cannot make a sandbox here (one line), or None when it can."""
    if not sys.platform.startswith("linux"):
        return f"the grading sandbox needs Linux (this is {sys.platform}): {NO_SANDBOX_HINT}"
    return _probe(_bwrap_command, "bwrap", ["bwrap", "prlimit", *(["setpriv", "unshare"] if os.geteuid() == 0 else [])])


def _probe(wrap: Callable[[Path, list[str]], list[str]], name: str, tools: list[str]) -> str | None:
    """Why the sandbox of ``wrap(private, argv)``, made with ``tools``, cannot run Python here (one line), or None."""
    for tool in tools:
        if shutil.which(tool) is None:
            package = {"bwrap": "bubblewrap", "env": "coreutils"}.get(tool, "util-linux")
            return f"no {tool} found (package {package}), so student code cannot be sandboxed: {NO_SANDBOX_HINT}"
    with tempfile.TemporaryDirectory(prefix="posenc-sandbox-") as private:
        hand_over(Path(private))
        argv = [sys.executable, "-c", "print('ok')"]
        try:
            done = subprocess.run(wrap(Path(private), argv), capture_output=True, text=True, timeout=60, cwd=private)
        except (OSError, subprocess.TimeoutExpired) as error:
            return f"{name} could not be started ({error}): {NO_SANDBOX_HINT}"
    if done.returncode != 0 or done.stdout.strip() != "ok":
        reason = (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1]
        return f"{name} is installed but cannot make a sandbox here ({reason}): {NO_SANDBOX_HINT}"
    return None
