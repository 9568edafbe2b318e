"""The kernel side of grading: nbgrader's ``Execute``, made to survive what a submission does to its kernel.

nbgrader runs a submission top to bottom in one kernel and scores each test cell by whether it raised. That is
the right rule, but one bad cell can take the notebook down with it: a kernel killed by ``os._exit`` loses every
later grade, a loop that ignores interrupts makes every later cell time out in turn, a cell that prints a
gigabyte lands in the feedback. :class:`GradingExecute` keeps nbgrader's rule and contains such cells: the
kernel starts under ``prlimit``'s limits in the sandbox of :mod:`posenc_grader.sandbox`; processes a cell leaves
running are killed (:mod:`posenc_grader.processes`); a kernel that does not start is started again; a cell that
kills or hangs the kernel fails alone, and the kernel is restarted with the earlier cells replayed; outputs are
cut; the canary of :mod:`posenc_grader.integrity` is removed, and whether it failed as it must is kept. A test
cell's hidden part, taken from the source notebook (``hidden_tests``; a submission's own text between the markers
is its code, run in the kernel), never runs in the kernel: it runs here (:func:`posenc_grader.hidden.run`), each
call of an answer function a probe cell in the kernel that hands back wire data, and a failure is written into the
test cell as its first output, so that nbgrader scores the cell zero. What happened is written as JSON to
``report_path`` for the worker.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
from pathlib import Path

from jupyter_client.manager import AsyncKernelManager
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbclient.util import run_sync
from nbformat import NotebookNode
from nbformat.v4 import new_code_cell
from nbgrader.preprocessors import Execute
from traitlets import Bool, Dict, Integer, List, Unicode

from . import hidden, integrity, processes, sandbox
from .course import grade_id

THREADS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS")


def limited(memory_bytes: int, file_bytes: int, processes: int | None) -> list[str]:
    """The start of a command that runs a kernel under limits: ``prlimit`` sets them on itself, then execs it, so
    that nothing of the grader runs between ``fork`` and ``exec``, as a ``preexec_fn`` would in a process that has
    threads. ``processes`` limits the tasks of the kernel's user (``RLIMIT_NPROC`` is counted per user: only the
    sandbox gives the kernel a user of its own). Without ``prlimit`` (not Linux), no limits."""
    tool = shutil.which("prlimit")
    if tool is None:
        return []
    nproc = [] if processes is None else [f"--nproc={processes}"]
    return [tool, f"--as={memory_bytes}", f"--fsize={file_bytes}", "--core=0", *nproc, "--"]


def error_output(ename: str, evalue: str) -> NotebookNode:
    """An error output as a kernel would send it: nbgrader scores a test cell holding one as failed."""
    return NotebookNode(output_type="error", ename=ename, evalue=evalue, traceback=[f"{ename}: {evalue}"])


def _holds_error(cell: NotebookNode) -> bool:
    """Whether ``cell`` holds an error output, which makes nbgrader score it zero."""
    return any(o.output_type == "error" for o in cell.get("outputs", []))


def _size(output: NotebookNode) -> int:
    """Characters in an output (its text, its traceback, or all its data)."""
    if output.output_type == "stream":
        return len(output.text)
    if output.output_type == "error":
        return len(output.evalue) + sum(len(line) for line in output.traceback)
    return sum(len(v) if isinstance(v, str) else len(json.dumps(v)) for v in output.get("data", {}).values())


def truncate_outputs(cell: NotebookNode, max_chars: int) -> bool:
    """Keep at most ``max_chars`` characters of ``cell``'s outputs in all; True if anything was cut.

    A stream or an error keeps its beginning; rich output (images, HTML) that does not fit is replaced
    by a note, so that the notebook stays valid.
    """
    budget, cut = max_chars, False
    for output in cell.get("outputs", []):
        size = _size(output)
        if size <= budget:
            budget -= size
            continue
        note = f"\n... output cut by the grader ({size:,} characters) ..."
        if output.output_type == "stream":
            output.text = output.text[:budget] + note
        elif output.output_type == "error":
            output.evalue = output.evalue[:budget]
            output.traceback = ["\n".join(output.traceback)[:budget] + note]
        else:
            output.data, output.metadata = {"text/plain": note.strip()}, {}
        budget, cut = 0, True
    return cut


class SandboxedKernelManager(AsyncKernelManager):
    """A kernel manager whose kernel runs under limits in the sandbox of :mod:`posenc_grader.sandbox`, over ``ipc``."""

    sandbox_dir = Unicode("", help="the kernel's private folder; empty: no sandbox").tag(config=True)
    launcher = List(Unicode(), help="what runs the kernel's command: prlimit (see limited)").tag(config=True)

    def format_kernel_cmd(self, extra_arguments=None):
        argv = [*self.launcher, *super().format_kernel_cmd(extra_arguments)]
        return sandbox.command(Path(self.sandbox_dir), argv) if self.sandbox_dir else argv

    def write_connection_file(self, **kwargs):
        if self.sandbox_dir:
            # The folder is the kernel's: on a restart, what it left in the file's place (a link to a file of the
            # grader's, which would then be handed over, or a folder) is removed, and a fresh file written.
            connection = Path(self.connection_file)
            if connection.is_dir() and not connection.is_symlink():
                shutil.rmtree(connection)
            else:
                connection.unlink(missing_ok=True)
            self._connection_file_written = False
        super().write_connection_file(**kwargs)
        if self.sandbox_dir:  # the kernel, the sandbox's user, reads it and makes its sockets in that folder
            sandbox.hand_over(Path(self.sandbox_dir))
            sandbox.hand_over(Path(self.connection_file))


class GradingExecute(Execute):
    """nbgrader's ``Execute`` with resource limits, recovery from dead or stuck kernels, and output caps."""

    memory_limit = Integer(2048 * 1024**2, help="address-space limit of the kernel, in bytes").tag(config=True)
    file_size_limit = Integer(64 * 1024**2, help="largest file the kernel may write, in bytes").tag(config=True)
    max_output_chars = Integer(20_000, help="characters of output kept per cell").tag(config=True)
    process_limit = Integer(64, help="processes and threads of the sandboxed kernel, all together").tag(config=True)
    max_restarts = Integer(3, help="kernel restarts allowed per notebook").tag(config=True)
    responsive_grace = Integer(3, help="seconds a kernel has to answer after a timeout").tag(config=True)
    report_path = Unicode("", help="where to write the JSON report of what happened").tag(config=True)
    private_dir = Unicode("", help="the kernel's own working folder (its only writable place)").tag(config=True)
    sandboxed = Bool(True, help="run the kernel in the bubblewrap sandbox").tag(config=True)
    start_attempts = Integer(3, help="times a kernel that does not start is started again").tag(config=True)
    answer_names = List(Unicode(), help="the notebook's answer functions, which its hidden tests call in the kernel "
                                        "(posenc_grader.hidden)").tag(config=True)
    hidden_tests = Dict(help="{grade id: hidden tests} of the source notebook (posenc_grader.hidden.tests_of): "
                             "never taken from the submission").tag(config=True)

    def preprocess(self, nb, resources=None, km=None):
        self.events: list[dict] = []
        self.failed: set[int] = set()      # cells that killed or hung the kernel: never run again
        self.restarts, self.gave_up = 0, False
        try:
            nb, resources = super().preprocess(nb, resources, km)
            nb.cells, canary_ok = integrity.without_canary(nb.cells)
            self.events.append({"kind": "canary", "ok": None if self.gave_up else canary_ok})
        finally:
            if self.report_path:
                with open(self.report_path, "w", encoding="utf-8") as f:
                    json.dump(self.events, f)
        return nb, resources

    def create_kernel_manager(self):
        """nbclient's kernel manager, sandboxed and talking over Unix sockets in the private folder."""
        self.kernel_manager_class = SandboxedKernelManager
        km = super().create_kernel_manager()
        km.launcher = limited(self.memory_limit, self.file_size_limit, self.process_limit if self.sandboxed else None)
        if self.sandboxed:
            km.sandbox_dir = self.private_dir
            km.transport = "ipc"  # TCP inside the sandbox's network namespace is out of reach
            km.connection_file = os.path.join(self.private_dir, "kernel.json")
            km.ip = os.path.join(self.private_dir, "kernel-ipc")
            # the kernel leads a session of its own in the sandbox, which a signal to the process group of bwrap
            # does not reach: it is told to interrupt itself, by message
            km.kernel_spec.interrupt_mode = "message"
        return km

    async def async_start_new_kernel(self, **kwargs):
        threads = {name: "1" for name in THREADS}
        kwargs.setdefault("env", sandbox.environment(threads) if self.sandboxed else {**os.environ, **threads})
        kwargs["cwd"] = self.private_dir
        await super().async_start_new_kernel(**kwargs)

    start_new_kernel = run_sync(async_start_new_kernel)  # nbclient's sync wrapper would call its own version

    async def async_start_new_kernel_client(self):
        """Connect to the new kernel; when it does not answer, start a fresh one (``start_attempts`` in all)."""
        for attempt in range(1, self.start_attempts + 1):
            try:
                return await super().async_start_new_kernel_client()
            except RuntimeError as error:  # "Kernel didn't respond in 60 seconds", or it died while starting
                if attempt == self.start_attempts:
                    raise
                self.events.append({"kind": "kernel_retry", "why": str(error).splitlines()[0][:200]})
                self.create_kernel_manager()  # nbclient has shut the kernel down and dropped its manager
                await self.async_start_new_kernel()

    start_new_kernel_client = run_sync(async_start_new_kernel_client)

    def preprocess_cell(self, cell, resources, index):
        if self.gave_up:
            if cell.cell_type == "code" and not integrity.is_canary(cell):
                cell.outputs = [error_output("NotRun", "not run: the kernel failed too often in earlier cells")]
            return cell, self.resources
        source = cell.source
        cell.source, tests = self._parts(cell)
        try:
            trouble = self._execute(cell, index)
        finally:
            cell.source = source
        if tests and not trouble and not _holds_error(cell):  # else it scores 0
            found = hidden.run(tests, self.answer_names, lambda name, request: self._call(cell, index, name, request))
            if found and not _holds_error(cell):  # unless a call failed it; first: nbgrader reads outputs in order
                cell.outputs.insert(0, error_output(*found))
        return cell, self.resources

    def _parts(self, cell) -> tuple[str, str]:
        """What of ``cell`` the kernel runs, and the hidden tests run here: a test cell's, from ``hidden_tests`` (the
        source notebook's); none for any other cell, whatever its text (a student's is code, run whole). A test cell
        that holds hidden tests the executor was not given is a misconfiguration: it stops the notebook."""
        tests = self.hidden_tests.get(grade_id(cell), "") if cell.cell_type == "code" else ""
        visible, marked = hidden.split(cell.source)
        if not tests and marked and hidden.is_test_cell(cell):
            raise RuntimeError(f"{grade_id(cell)} holds hidden tests that GradingExecute.hidden_tests does not")
        return (visible if tests else cell.source), tests

    def _execute(self, cell, index: int, blame=None) -> str | None:
        """Run ``cell`` in the kernel, containing what it does: None, ``"crashed"`` or ``"timeout"``. A failure is
        written into ``blame`` (``cell`` itself unless a probe runs for the hidden tests of another cell)."""
        blame = cell if blame is None else blame
        try:
            super().preprocess_cell(cell, self.resources, index)
        except DeadKernelError:
            self._fail(blame, index, "crashed", "the kernel died while running this cell (os._exit, a crash, or "
                                                "the memory limit); it was restarted")
            return "crashed"
        except CellTimeoutError:
            self._fail(blame, index, "timeout", "the kernel stopped answering while running this cell; "
                                                "it was restarted")
            return "timeout"
        except Exception as error:  # noqa: BLE001 -- what the kernel sent could not be read: a cell that tampered
            self._fail(blame, index, "crashed", f"the kernel's answer to this cell could not be read "
                                                f"({type(error).__name__}); it was restarted")
            return "crashed"
        if not self._stop_leftovers():
            self._fail(blame, index, "crashed", "this cell left processes running that could not be stopped; "
                                                "the kernel was restarted")
            return "crashed"
        enames = {o.get("ename") for o in cell.get("outputs", []) if o.output_type == "error"}
        if "CellTimeoutError" in enames:
            self._record("timeout", blame, index)
            if not self._responsive():
                self.failed.add(index)
                self._restart(index)
        if "MemoryError" in enames:
            self._record("memory", blame, index)
        if blame is cell and truncate_outputs(cell, self.max_output_chars):
            self._record("output_cut", cell, index)
        return "timeout" if "CellTimeoutError" in enames else None

    def _call(self, cell, index: int, name: str, request: dict) -> dict | None:
        """For the hidden tests of ``cell``: call the kernel's ``name`` in a probe cell, run as any cell is."""
        probe = new_code_cell(hidden.call_code(name, request))
        try:
            trouble = self._execute(probe, index, blame=cell)
        finally:
            self.nb.cells[index] = cell  # nbclient puts the cell it ran at its index
        if trouble == "timeout":
            raise hidden.Stop("CellTimeoutError", f"{name} ran past the time limit of {self.timeout} s")
        if trouble:
            raise hidden.Stop("KernelDied", f"{name} killed the kernel")
        answer = hidden.answer_in(probe.outputs)
        if answer and answer.get("raised") == "MemoryError":
            self._record("memory", cell, index)
        return answer

    def _stop_leftovers(self) -> bool:
        """Kill every process the last cell left running; False if some could not be stopped."""
        process = self.km.provisioner.process if self.km and self.km.provisioner else None
        return process is None or processes.stop_leftovers(process.pid, self.sandboxed)

    def _record(self, kind: str, cell: NotebookNode, index: int) -> None:
        self.events.append({"kind": kind, "cell": integrity.cell_name(cell, index)})

    def _fail(self, cell: NotebookNode, index: int, kind: str, why: str) -> None:
        """Mark ``cell`` as failed (nbgrader then scores it zero), never run it again, restart the kernel."""
        cell.outputs = [error_output("KernelDied" if kind == "crashed" else "CellTimeoutError", why)]
        self._record(kind, cell, index)
        self.failed.add(index)
        self._restart(index)

    def _responsive(self) -> bool:
        """Whether the kernel answers a ``kernel_info`` request within the grace period."""
        timeout, self.timeout = self.timeout, self.responsive_grace
        try:
            return self.wait_for_reply(self.kc.kernel_info()) is not None
        except (DeadKernelError, CellTimeoutError, RuntimeError):
            return False
        finally:
            self.timeout = timeout

    def _restart(self, failed_index: int) -> None:
        """Restart the kernel and replay, silently, the code cells before ``failed_index`` that did not fail (a test
        cell's visible part only; what a replay gives is discarded, and each cell keeps its result).

        A replayed cell that kills or hangs the new kernel joins the failed cells and the restart begins
        again; after ``max_restarts`` the remaining cells are not run at all.
        """
        while self.restarts < self.max_restarts:
            self.restarts += 1
            run_sync(self.km.restart_kernel)(now=True)
            self.kc.stop_channels()
            self.start_new_kernel_client()
            replay = [i for i, c in enumerate(self.nb.cells[:failed_index])
                      if c.cell_type == "code" and i not in self.failed and not integrity.is_canary(c)]
            for index in replay:
                cell = self.nb.cells[index]
                rerun = copy.deepcopy(cell)
                rerun.source = self._parts(cell)[0]
                try:
                    super().preprocess_cell(rerun, self.resources, index)
                except Exception:  # noqa: BLE001 -- dead, hung, or unreadable: as in _execute
                    self.failed.add(index)
                    break
                finally:
                    self.nb.cells[index] = cell  # nbclient puts the cell it ran at its index: the replay is discarded
                if any(o.get("ename") == "CellTimeoutError" for o in rerun.get("outputs", [])):
                    self.failed.add(index)
                    break
            else:
                return
        self.gave_up = True
        self.events.append({"kind": "gave_up", "cell": integrity.cell_name(self.nb.cells[failed_index], failed_index)})
