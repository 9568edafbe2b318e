"""The layers are a contract, not prose: import-linter checks the contracts written in pyproject.toml.

No idea module of posenc imports posenc.book, the layer that serves the chapters; posenc never imports
the instructor's grader. The second test breaks a copy of the package on purpose, to show that the
check can fail.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

LINT = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"


SOURCES = {"posenc": ROOT / "src", "posenc_grader": ROOT / "grader" / "src"}  # the two distributions


def lint_imports(*folders: Path) -> subprocess.CompletedProcess:
    """Run import-linter with the contracts of pyproject.toml over the packages found in ``folders``."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, folders))}
    return subprocess.run([sys.executable, "-c", LINT, "--no-cache", "--no-logo", str(ROOT / "pyproject.toml")],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)


def test_idea_modules_never_import_the_book_and_posenc_never_imports_the_grader():
    result = lint_imports(*SOURCES.values())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 kept, 0 broken" in result.stdout


def test_an_idea_module_that_imports_the_book_breaks_the_contract(tmp_path):
    for package, folder in SOURCES.items():
        shutil.copytree(folder / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    with open(tmp_path / "posenc" / "rotary.py", "a", encoding="utf-8") as rotary:
        rotary.write("\nfrom posenc.book.glue import glue  # an idea reaching up into the book\n")
    result = lint_imports(tmp_path)
    assert result.returncode != 0
    assert "1 kept, 1 broken" in result.stdout
    assert "posenc.rotary -> posenc.book.glue" in result.stdout
