"""Finding submissions, telling which exercise each file is, and repairing what students do to notebooks.

Files get renamed (``rotation (1).ipynb``), uploaded to the wrong slot, saved by editors that drop cells or
metadata, or are not notebooks at all. So a file is identified by its **content** (the nbgrader ids of its
cells, or failing that the text of its locked cells), and before grading its structure is **restored** to the
handed-out one (:func:`restore`): every handed-out cell once, in order, locked cells with their original text, a
deleted answer back empty (so that an answer written elsewhere still counts); the student's answers and added
cells kept. Each repair is named in the submission's message, so a student sees why a grade is what it is.
"""

from __future__ import annotations

import collections
import copy
import os
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from nbformat import NotebookNode

from . import integrity
from .course import grade_id as _grade_id
from .course import nbgrader_meta as _meta
from .escapes import safe_name

NOTEBOOK_SUFFIX = ".ipynb"


@dataclass
class Row:
    """One row of the grade sheet: a notebook to grade (``notebook`` set) or the reason there is none."""

    student: str
    assignment: str
    notebook: str
    status: str = "ok"
    notes: list[str] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    content: NotebookNode | None = None
    path: Path | None = None

    @property
    def key(self) -> tuple[str, str, str]:
        return self.student, self.assignment, self.notebook


class Catalog:
    """The student versions of every notebook of the course, indexed by their cells."""

    def __init__(self, release_dir: Path):
        self.notebooks: dict[tuple[str, str], NotebookNode] = {}
        self.owner: dict[str, tuple[str, str]] = {}        # grade id -> (assignment, notebook)
        self.locked_text: dict[str, str] = {}              # source of a locked cell -> its grade id
        self.assignments: dict[str, list[str]] = {}        # assignment -> its notebooks
        for path in sorted(release_dir.glob(f"*/*{NOTEBOOK_SUFFIX}")):
            key = (path.parent.name, path.stem)
            nb = nbformat.read(str(path), as_version=4)
            self.notebooks[key] = nb
            self.assignments.setdefault(key[0], []).append(key[1])
            for cell in nb.cells:
                grade_id = _grade_id(cell)
                if grade_id:
                    self.owner[grade_id] = key
                    if _meta(cell).get("locked") and cell.source.strip():
                        self.locked_text.setdefault(cell.source.strip(), grade_id)

    def identify(self, nb: NotebookNode) -> tuple[str, str] | None:
        """The (assignment, notebook) most of this notebook's cells belong to by their ids; where none has an id (an
        editor that strips metadata), by their locked text. None for ids of no exercise of this course: another
        assignment's notebook, where the course holds one assignment (a Gradescope autograder's), whose locked cells
        share text with this one's."""
        ids = [g for cell in nb.cells if (g := _grade_id(cell))]
        keys = ids or [self.locked_text.get(str(cell.get("source", "")).strip()) for cell in nb.cells]
        votes = collections.Counter(self.owner[key] for key in keys if key in self.owner)
        return votes.most_common(1)[0][0] if votes else None


def find_files(root: Path) -> list[tuple[str, str | None, Path | None]]:
    """``(student, assignment folder or None, path)`` for every notebook under ``root/<student>/``.

    A folder of a student that holds no notebook at all appears once, with ``path`` None. A symbolic link (a
    student's folder, an assignment folder or a notebook) appears as itself, unfollowed, for :func:`read` to
    refuse: it may point at another student's file, or at one only the grader may read.
    """
    found = []
    for link in sorted(p for p in root.iterdir() if p.is_symlink() and p.is_dir() and not p.name.startswith(".")):
        found.append((safe_name(link.name), None, link))  # read() refuses it: a link may point anywhere
    for student_dir in sorted(p for p in root.iterdir()
                              if p.is_dir() and not p.is_symlink() and not p.name.startswith(".")):
        student = safe_name(student_dir.name)
        for dirpath, dirnames, filenames in os.walk(student_dir):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            here = Path(dirpath)
            folder = safe_name(here.relative_to(student_dir).parts[0]) if here != student_dir else None
            found += [(student, folder, here / name) for name in sorted(filenames)
                      if name.endswith(NOTEBOOK_SUFFIX) and not name.startswith(".")]
            found += [(student, folder or safe_name(name), here / name) for name in dirnames
                      if (here / name).is_symlink()]  # os.walk does not enter it; read() refuses it
        folders = {folder for who, folder, _ in found if who == student}
        found += [(student, safe_name(d.name), None) for d in sorted(student_dir.iterdir())
                  if d.is_dir() and not d.name.startswith(".") and safe_name(d.name) not in folders]
    return found


def read(path: Path, max_bytes: int) -> tuple[NotebookNode | None, str | None]:
    """The notebook in ``path``, or ``(None, reason)`` when it is a symbolic link (never followed: it may point
    at another student's file or one only the grader may read), too large, or not a notebook."""
    if path.is_symlink():
        return None, "unreadable: a symbolic link, not a file: links are not followed, so it was not graded"
    size = path.stat().st_size
    if size > max_bytes:
        return None, f"too_large: {size / 2**20:.1f} MB, above the limit of {max_bytes / 2**20:.0f} MB"
    try:
        nb = nbformat.reads(path.read_text(encoding="utf-8", errors="replace"), as_version=4)
        if not isinstance(nb.get("cells"), list):
            raise ValueError("it has no list of cells")
    except Exception as error:  # nbformat raises many kinds for broken files
        detail = str(error).splitlines()[0][:200] if str(error) else type(error).__name__
        return None, f"unreadable: not a Jupyter notebook ({detail})"
    return nb, None


def restore(nb: NotebookNode, handed_out: NotebookNode) -> tuple[NotebookNode, list[str]]:
    """The submission ``nb`` with the cell structure of ``handed_out`` restored; and what was repaired."""
    order = [_grade_id(c) for c in handed_out.cells if _grade_id(c)]   # cells without an id are the student's
    original = {_grade_id(c): c for c in handed_out.cells if _grade_id(c)}
    locked_text = {(c.cell_type, c.source.strip()): _grade_id(c) for c in handed_out.cells if _meta(c).get("locked")}
    matched: dict[str, NotebookNode] = {}
    added: dict[str | None, list[NotebookNode]] = {}
    seen_order, notes, anchor = [], [], None
    for cell in nb.cells:
        grade_id = _grade_id(cell)
        text = (cell.get("cell_type"), str(cell.get("source", "")).strip())  # a raw copy is no test cell
        if grade_id is None and text in locked_text:
            grade_id = locked_text[text]
            if grade_id not in matched:
                notes.append(f"cell {grade_id} had lost its nbgrader metadata (restored)")
        if grade_id in original and grade_id not in matched:
            matched[grade_id] = cell
            seen_order.append(grade_id)
            anchor = grade_id
            continue
        extra = copy.deepcopy(cell)
        if grade_id in original:
            notes.append(f"a copy of cell {grade_id} was kept as your own cell")
        extra.get("metadata", {}).pop("nbgrader", None)
        added.setdefault(anchor, []).append(extra)
    if seen_order != [g for g in order if g in matched]:
        notes.append("cells had been moved; graded in the handed-out order")
    cells = list(added.get(None, []))
    for grade_id in order:
        cells.append(_restored_cell(grade_id, original[grade_id], matched.get(grade_id), notes))
        cells += added.get(grade_id, [])
    ids = set()
    for number, cell in enumerate(cells):
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
        if not cell.get("id") or cell.id in ids:
            cell.id = f"cell-{number}"
        ids.add(cell.id)
    out = nbformat.v4.new_notebook(cells=cells, metadata=copy.deepcopy(handed_out.metadata))
    return out, notes


def _restored_cell(grade_id: str, original: NotebookNode, submitted: NotebookNode | None, notes: list[str]):
    cell = copy.deepcopy(original)
    meta = _meta(original)
    if submitted is None:
        kind = "answer" if meta.get("solution") else "test" if meta.get("grade") else "locked"
        notes.append(f"{kind} cell {grade_id} was missing (restored{' empty' if kind == 'answer' else ''})")
        if kind == "answer":  # empty, so that it cannot undo an answer the student wrote in a cell of their own
            cell.source = "# (missing from the submission)" if cell.cell_type == "code" else "*(missing)*"
        return cell
    if meta.get("locked"):
        if str(submitted.get("source", "")) != original.source and not _as_handed_out(submitted):
            notes.append(f"locked cell {grade_id} had been edited (restored)")
        return cell
    if submitted.get("cell_type") != original.cell_type:
        notes.append(f"cell {grade_id} had been turned into {submitted.get('cell_type')} (turned back)")
    source = submitted.get("source", "")
    cell.source = "".join(source) if isinstance(source, list) else str(source)
    if cell.cell_type != "code" and isinstance(submitted.get("attachments"), dict):  # a pasted image, say
        cell.attachments = copy.deepcopy(submitted["attachments"])
    return cell


def _as_handed_out(cell: NotebookNode) -> bool:
    """Whether a locked cell is as a release of the course handed it out: the checksum nbgrader wrote beside it
    fits (the cell of an earlier release, the instructor's text changed since). Forging it only hides the note."""
    from nbgrader.utils import compute_checksum

    try:
        return _meta(cell).get("checksum") == compute_checksum(cell)
    except Exception:  # noqa: BLE001 -- a student's metadata may be anything
        return False


def triage(files: list[tuple[str, str | None, Path | None]], catalog: Catalog, max_bytes: int) -> list[Row]:
    """One :class:`Row` per (student, assignment, notebook) found, missing or unusable."""
    rows: dict[tuple[str, str, str], Row] = {}
    folders = {(student, folder) for student, folder, path in files if path is None}
    for student, folder, path in files:
        if path is None:
            continue
        try:
            row = _triage_file(student, folder, path, catalog, max_bytes)
        except Exception as error:  # a file can be broken in more ways than nbformat checks for
            row = Row(student, folder or "(none)", safe_name(path.stem), "unreadable", path=path,
                           notes=[f"its cells could not be read ({type(error).__name__}: {error})"])
        previous = rows.get(row.key)
        if previous is None:
            rows[row.key] = row
            continue
        keep, drop = (previous, row) if _preferred(previous, row) else (row, previous)
        keep.notes.append(f"also found '{drop.path.name}', not graded")
        rows[row.key] = keep
    assignments = catalog.assignments
    for student, assignment in sorted({(s, a) for s, a, _ in rows} | folders):
        if assignment not in assignments:
            continue
        for notebook in assignments[assignment]:
            if (student, assignment, notebook) not in rows:
                rows[(student, assignment, notebook)] = Row(
                    student, assignment, notebook, "missing", [f"no file for {notebook}{NOTEBOOK_SUFFIX} was found"])
    return [rows[key] for key in sorted(rows)]


def _preferred(a: Row, b: Row) -> bool:
    """Between two files for one notebook: the one named exactly like it, else the one saved last."""
    exact_a, exact_b = (p.path is not None and p.path.stem == p.notebook for p in (a, b))
    if exact_a != exact_b:
        return exact_a
    return a.path.lstat().st_mtime >= b.path.lstat().st_mtime


def _triage_file(student: str, folder: str | None, path: Path, catalog: Catalog, max_bytes: int) -> Row:
    assignments = catalog.assignments
    nb, problem = read(path, max_bytes)
    fallback = Row(student, folder or "(none)", safe_name(path.stem), path=path)
    if folder in assignments and path.stem not in assignments[folder] and len(assignments[folder]) == 1:
        fallback.notebook = assignments[folder][0]
    if nb is None:
        fallback.status, message = problem.split(": ", 1)
        fallback.notes.append(message)
        return fallback
    found = catalog.identify(nb)
    if found is None:
        fallback.status = "wrong_notebook"
        fallback.notes.append("no cell of this file belongs to any exercise notebook of the course")
        return fallback
    assignment, notebook = found
    if folder in assignments and folder != assignment:
        fallback.status = "wrong_notebook"
        fallback.notes.append(f"this file is the notebook {assignment}/{notebook}{NOTEBOOK_SUFFIX}, "
                              f"not one of {folder}")
        return fallback
    row = Row(student, assignment, notebook, path=path)
    if path.stem != notebook:
        row.notes.append(f"file '{path.name}' graded as {notebook}{NOTEBOOK_SUFFIX}")
    if folder not in assignments:
        row.notes.append(f"found in folder '{folder or student}', graded as {assignment}")
    row.content, repairs = restore(nb, catalog.notebooks[found])
    if repairs:
        row.status = "repaired"
        row.notes += repairs
    modules = integrity.module_names([c.source for c in row.content.cells if c.cell_type == "code"])
    for index, cell in enumerate(row.content.cells):
        if cell.cell_type == "code" and not _meta(cell).get("locked"):
            name = integrity.cell_name(cell, index)
            row.flags += [f"{name} {finding}" for finding in integrity.scan(cell.source, modules)]
    return row
