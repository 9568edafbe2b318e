"""Every theorem of the book is verified on its page.

A theorem is verified on its page by a code cell tagged ``verifies-<label>`` (cell metadata ``tags``): the
cell is shown to the reader (not removed, input not hidden) and ends in an assertion, so the strict build
fails when the claim does. What a page cannot show in a few lines (a comparison with transformers or the
authors' code, a sweep over many configurations) is, in addition, a test marked
``@pytest.mark.verifies("<label>")`` in a file the page names (the landing page promises both).

A theorem the book quotes from its source without verifying it (a textbook fact such as the spectral
theorem) carries ``:class: cited`` in its directive and cites that source in its statement; it is exempt.
"""

from __future__ import annotations

import re

import nbformat
import pytest
from conftest import CHAPTERS, ROOT

THEOREM = re.compile(r"^(`{3,})\{prf:theorem\}[^\n]*\n((?::[\w-]+:[^\n]*\n)*)(.*?)^\1$", re.MULTILINE | re.DOTALL)
TAG = "verifies-"
MARKER = re.compile(r"""mark\.verifies\(([^)]*)\)""")
ASSERTION = re.compile(r"^\s*(assert\b|np\.testing\.assert_|torch\.testing\.assert_)", re.MULTILINE)
HIDDEN = {"remove-cell", "remove-input", "hide-cell", "hide-input"}


def notebook(path):
    return nbformat.read(str(path), as_version=4)


def theorems() -> dict[str, dict]:
    """``{label: {"chapter": path, "classes": [...], "statement": text}}`` for every theorem of the chapters."""
    found = {}
    for path in CHAPTERS:
        for cell in notebook(path).cells:
            if cell.cell_type != "markdown":
                continue
            for _, options, statement in THEOREM.findall(cell.source):
                fields = dict(re.findall(r"^:([\w-]+):\s*(.*)$", options, re.MULTILINE))
                assert "label" in fields, f"{path.name}: a theorem without a :label:: {statement[:60]!r}"
                found[fields["label"]] = {"chapter": path, "classes": fields.get("class", "").split(),
                                          "statement": statement}
    return found


def verifying_cells(path) -> dict[str, list]:
    """``{label: [code cells tagged verifies-<label>]}`` of one chapter (it may verify an earlier chapter's)."""
    cells = {}
    for cell in notebook(path).cells:
        for tag in cell.get("metadata", {}).get("tags", []):
            if tag.startswith(TAG):
                cells.setdefault(tag[len(TAG):], []).append(cell)
    return cells


def verifying_tests() -> dict[str, list[str]]:
    """``{label: [test files]}`` of every ``@pytest.mark.verifies(...)`` in ``tests/``."""
    found = {}
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        for arguments in MARKER.findall(path.read_text(encoding="utf-8")):
            for label in re.findall(r"""["']([\w-]+)["']""", arguments):
                found.setdefault(label, []).append(path.name)
    return found


THEOREMS = theorems()
VERIFIED_ON_A_PAGE = {label for path in CHAPTERS for label in verifying_cells(path)}
TESTS = verifying_tests()


@pytest.mark.parametrize("label", sorted(THEOREMS))
def test_every_theorem_is_verified_on_its_page(label):
    theorem = THEOREMS[label]
    if "cited" in theorem["classes"]:
        assert "{cite" in theorem["statement"], f"{label} is marked cited but cites no source"
        return
    cells = verifying_cells(theorem["chapter"]).get(label, [])
    assert cells, f"{label}: tag the cell of {theorem['chapter'].name} that verifies it `{TAG}{label}`"
    for cell in cells:
        assert cell.cell_type == "code", f"{label}: only a code cell can verify a theorem"
        assert not HIDDEN & set(cell.metadata.get("tags", [])), f"{label}: the verifying cell is hidden from the reader"
        assert ASSERTION.search(cell.source), f"{label}: the verifying cell asserts nothing"


def test_every_label_verified_names_a_theorem_of_the_book():
    assert sorted((VERIFIED_ON_A_PAGE | set(TESTS)) - set(THEOREMS)) == []

