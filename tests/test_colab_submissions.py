"""A notebook handed in from Colab gets the marks it earned.

Colab saves a notebook its own way: nbformat 4.0 (so no cell ids), a ``colab`` block in the notebook's
metadata, an ``id`` in each cell's metadata, and the cells' nbgrader metadata kept or, by some tools on
the way, stripped. Graded through the real pipeline, the model answers saved that way must score exactly
what the same answers score as nbformat writes them: every autograded point (a stripped notebook's row
says that its metadata was repaired).
"""

from __future__ import annotations

import json
import secrets
import shutil

import nbformat
import pytest
from conftest import ROOT

from posenc_grader import Limits, grade_class, samples
from posenc_grader.records import PREPARED

pytestmark = pytest.mark.grader

ASSIGNMENT, NOTEBOOK = "ch04_rotation", "rotation"


def read(kind: str) -> nbformat.NotebookNode:
    return nbformat.read(str(ROOT / "exercises" / kind / ASSIGNMENT / f"{NOTEBOOK}.ipynb"), as_version=4)


def as_colab_saves_it(notebook: nbformat.NotebookNode, keep_nbgrader: bool) -> str:
    """The JSON Colab writes for ``notebook``: nbformat 4.0, a colab block, cell ids in metadata only."""
    saved = json.loads(nbformat.writes(notebook))
    saved["nbformat"], saved["nbformat_minor"] = 4, 0
    saved["metadata"]["colab"] = {"provenance": [], "name": f"{NOTEBOOK}.ipynb"}
    saved["metadata"]["accelerator"] = "CPU"
    for cell in saved["cells"]:
        cell.pop("id", None)
        if not keep_nbgrader:
            cell["metadata"].pop("nbgrader", None)
        cell["metadata"]["id"] = secrets.token_urlsafe(9)
    return json.dumps(saved, indent=2)


def autograded_points(source: nbformat.NotebookNode) -> float:
    return sum(c.metadata["nbgrader"]["points"] for c in source.cells
               if c.metadata.get("nbgrader", {}).get("grade") and c.cell_type == "code")


def test_model_answers_saved_by_colab_get_full_marks(tmp_path, prepared_course):
    source = read("source")
    solved = samples.filled(read("release"), samples.solutions(source))
    submissions = tmp_path / "submissions"
    files = {
        "as nbformat writes it": nbformat.writes(solved),
        "colab, nbgrader metadata kept": as_colab_saves_it(solved, keep_nbgrader=True),
        "colab, nbgrader metadata stripped": as_colab_saves_it(solved, keep_nbgrader=False),
    }
    for student, text in files.items():
        folder = submissions / student / ASSIGNMENT
        folder.mkdir(parents=True)
        (folder / f"{NOTEBOOK}.ipynb").write_text(text, encoding="utf-8")
    assert json.loads(files["colab, nbgrader metadata stripped"])["nbformat_minor"] == 0
    shutil.copytree(prepared_course, tmp_path / "out" / PREPARED)
    rows = grade_class(submissions, tmp_path / "out", limits=Limits(), jobs=2,
                       progress=lambda line: None)
    scores = {row["student"]: (float(row["score"]), row["status"]) for row in rows}
    full = autograded_points(source)
    assert full > 0
    # stripped metadata is restored from the course's own copy, and the row says so ("repaired")
    assert scores == {"as nbformat writes it": (full, "ok"), "colab, nbgrader metadata kept": (full, "ok"),
                      "colab, nbgrader metadata stripped": (full, "repaired")}, [
        (r["student"], r["status"], r["message"]) for r in rows]
