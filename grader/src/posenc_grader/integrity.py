"""Signs that a submission tampered with its own grading, looked for from outside the kernel.

Patching numpy, builtins or the self-checks inside the kernel cannot make a wrong answer pass: the hidden tests
run outside it (:mod:`posenc_grader.hidden`). What a submission can still alter is how the kernel runs the
visible cells (an input transformer that empties every later cell, a hook that swallows exceptions). A
**canary**, a cell appended to every submission that must fail, catches both: if it does not fail, the
submission is ``tampered``. A **static scan** (:func:`scan`) flags the usual ways of tampering so that an
instructor can look; it does not change the score.
"""

from __future__ import annotations

import ast
import secrets

from nbformat import NotebookNode
from nbformat.v4 import new_code_cell

from .course import grade_id

CANARY = "posenc_grading_canary"
SUSPICIOUS_CALLS = {"setattr", "delattr", "exec", "eval", "compile", "__import__", "globals", "vars",
                    "get_ipython"}
SUSPICIOUS_NAMES = {"__builtins__", "builtins", "sys.modules", "ctypes", "gc", "inspect"}
#: What reads or rewrites the grading code's own frames: used by an answer, it is worth a look.
FRAME_ACCESS = {"sys._getframe", "sys.settrace", "sys.setprofile", "sys.modules"}


def canary_cell() -> NotebookNode:
    """A cell that must fail with a fresh random token in its message."""
    token = secrets.token_hex(8)
    cell = new_code_cell(f'assert False, "grader canary {token}: this cell must fail"')
    cell.metadata[CANARY] = token
    return cell


def is_canary(cell: NotebookNode) -> bool:
    return CANARY in cell.get("metadata", {})


def without_canary(cells: list) -> tuple[list, bool]:
    """Remove the canary cells; True if each one failed with its own token, as an untouched kernel does."""
    failed = [any(o.output_type == "error" and o.get("ename") == "AssertionError"
                  and cell.metadata[CANARY] in o.get("evalue", "") for o in cell.get("outputs", []))
              for cell in cells if is_canary(cell)]
    return [cell for cell in cells if not is_canary(cell)], bool(failed) and all(failed)


def cell_name(cell: NotebookNode, index: int) -> str:
    """The nbgrader id of a cell, or its position for a cell the student added."""
    return grade_id(cell) or f"cell {index + 1}"


def _dotted(node: ast.AST) -> str:
    """``np.testing.assert_allclose`` for the attribute chain ``node``, or '' if it is not one."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return ".".join([node.id, *reversed(parts)])
    if isinstance(node, ast.Subscript):
        return _dotted(node.value)
    return ""


def module_names(sources: list[str]) -> set[str]:
    """Every name the cells bind with ``import`` (``np`` for ``import numpy as np``, ``selfcheck``, ...)."""
    names = set()
    for source in sources:
        for node in ast.walk(_parse(source)):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return names


def _parse(source: str) -> ast.Module:
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError):
        return ast.Module(body=[], type_ignores=[])


def scan(source: str, modules: set[str]) -> list[str]:
    """What in one cell's code looks like tampering with the grading: a list of short descriptions."""
    found = []
    for node in ast.walk(_parse(source)):
        targets = []
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            name = _dotted(target)
            root = name.split(".")[0]
            if root in modules or name in SUSPICIOUS_NAMES or root in SUSPICIOUS_NAMES:
                verb = "rebinds" if isinstance(target, ast.Name) else "changes"
                found.append(f"{verb} {name} (line {node.lineno})")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in SUSPICIOUS_CALLS:
            found.append(f"calls {node.func.id}() (line {node.lineno})")
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            imported = {alias.name for alias in node.names} | {getattr(node, "module", None) or ""}
            found += [f"imports {name} (line {node.lineno})" for name in sorted(imported & SUSPICIOUS_NAMES)]
        if isinstance(node, ast.Name) and node.id == "__builtins__":
            found.append(f"uses __builtins__ (line {node.lineno})")
        if isinstance(node, ast.Attribute) and _dotted(node) in FRAME_ACCESS:
            found.append(f"uses {_dotted(node)} (line {node.lineno})")
    return sorted(set(found))
