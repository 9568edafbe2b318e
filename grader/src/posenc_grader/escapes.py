"""What a student controls, made harmless before the grader prints it, keeps it, or names anything by it.

A submission's outputs, answers and file or folder names may hold control characters: ``ESC [ 2 J``
clears a terminal, ``ESC ] 52 ; c ; ...`` writes its clipboard, the one-character ``CSI`` (``0x9b``) does
what ``ESC [`` does. A progress line printed to an instructor's terminal, or a feedback page that
someone reads with ``cat``, must not carry them: :func:`disarm` writes each control character as its
Python escape (``\\x1b``), which a terminal prints instead of acting on. A student's name becomes a folder, a key
of the grader's files and an id in nbgrader's gradebook, which the formgrader puts into its pages unescaped:
:func:`safe_name` makes it one that does no harm there. A spreadsheet runs a CSV field that begins with ``=``, ``+``,
``-`` or ``@`` as a formula: :func:`write_csv` quotes such a field as text.
"""

from __future__ import annotations

import csv
import hashlib
import re
from pathlib import Path

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # C0, DEL and C1: every character of Unicode's category Cc
#: Control characters, the invisible ones that change how text looks (zero-width, bidirectional), lone surrogates.
_INVISIBLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ud800-\udfff]")
_MARKUP = re.compile(r'[<>&"`/]')  # what ends a string or an element in HTML or JavaScript, or a path part
FORMULA = ("=", "+", "-", "@")  # how a spreadsheet's formula begins
MAX_NAME_BYTES = 200  # of a name made safe: a folder's name holds 255 bytes


def disarm(text: str, keep: str = "") -> str:
    """``text`` with every control character not in ``keep`` (say ``"\\n\\t"``) written as its escape."""
    return _CONTROL.sub(lambda m: m[0] if m[0] in keep else m[0].encode("unicode_escape").decode("ascii"), text)


def safe_name(name: str) -> str:
    """A student's ``name`` as grading uses it: its control and invisible characters written as escapes, as
    :func:`disarm` writes them; each of ``<>&"`/`` and a leading dot or space made ``_``, and then a short digest of
    the name as given added (``a_b~1f2e3d``), so that two names stay two; cut, with the digest, to
    :data:`MAX_NAME_BYTES`. Never empty; ``safe_name`` of its own result changes nothing."""
    digest = "~" + hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:6]
    safe = _MARKUP.sub("_", name).lstrip(". ") or "_"
    safe = _INVISIBLE.sub(lambda m: m[0].encode("unicode_escape").decode("ascii"), safe + digest * (safe != name))
    if len(safe.encode()) > MAX_NAME_BYTES:  # cut, with the digest, to fit a folder's name
        safe = safe.encode()[:MAX_NAME_BYTES - len(digest)].decode("utf-8", "ignore") + digest
    return safe


def _cell(field) -> str:
    """A CSV field: disarmed, and a formula's beginning kept as text (OWASP's advice: a leading quote)."""
    text = disarm(str(field))
    return "'" + text if text.startswith(FORMULA) else text


def write_csv(path: Path, rows: list[list], quote_all: bool = False) -> Path:
    """Write ``rows`` to the CSV file ``path`` (names and messages come from submissions: each field made safe)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        quoting = csv.QUOTE_ALL if quote_all else csv.QUOTE_MINIMAL
        csv.writer(f, quoting=quoting).writerows([[_cell(field) for field in row] for row in rows])
    return path
