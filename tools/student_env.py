"""Fresh Python environments like a student's (Colab's packages, Binder's image), and notebooks run in them
(tests/test_student_environments.py)."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import nbformat


def environment(folder: Path, requirements: list[str], python: str = sys.executable) -> Path:
    """The python of a venv at ``folder`` with ``requirements`` (and ipykernel) installed; made only when
    ``folder`` does not hold one made from the same lines. Installed without byte-compiling (as the Makefile's
    locks): a module is compiled when a kernel first imports it."""
    lines = [*requirements, "ipykernel"]
    stamp = hashlib.sha256("\n".join(lines).encode()).hexdigest()
    venv_python = folder / "bin" / "python"
    if (folder / ".requirements.sha256").is_file() and (folder / ".requirements.sha256").read_text() == stamp:
        return venv_python
    shutil.rmtree(folder, ignore_errors=True)
    subprocess.run([python, "-m", "venv", str(folder)], check=True)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as file:
        file.write("\n".join(lines) + "\n")
    subprocess.run([str(venv_python), "-m", "pip", "install", "-q", "--no-compile", "-r", file.name], check=True)
    (folder / ".requirements.sha256").write_text(stamp)
    return venv_python


def installed_versions(python: Path, names: list[str]) -> dict[str, str]:
    """``{distribution: version}`` as the environment of ``python`` reports them."""
    code = ("import importlib.metadata as m, json, sys\n"
            "print(json.dumps({n: m.version(n) for n in sys.argv[1:]}))")
    result = subprocess.run([str(python), "-c", code, *names], check=True, capture_output=True, text=True)
    return json.loads(result.stdout)


def size_mb(folder: Path) -> float:
    """Disk use of ``folder`` in MB (``du``: what the files occupy)."""
    return int(subprocess.run(["du", "-sk", str(folder)], check=True, capture_output=True, text=True)
               .stdout.split()[0]) / 1024


def run_notebook(notebook: nbformat.NotebookNode, python: Path, cwd: Path, timeout: int = 600) -> nbformat.NotebookNode:
    """Execute ``notebook`` in a kernel started by ``python`` (working directory ``cwd``; the runner, nbclient,
    stays in this environment); return it with its outputs. A cell that raises stops the run with nbclient's
    ``CellExecutionError``, which names the cell."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient

    with tempfile.TemporaryDirectory() as specs:
        spec = Path(specs) / "student"
        spec.mkdir()
        (spec / "kernel.json").write_text(json.dumps({
            "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "student", "language": "python"}))
        manager = KernelManager(kernel_name="student", kernel_spec_manager=KernelSpecManager(kernel_dirs=[specs]))
        client = NotebookClient(notebook, km=manager, timeout=timeout, resources={"metadata": {"path": str(cwd)}})
        client.execute()
    return notebook
