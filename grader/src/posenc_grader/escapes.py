"""Terminal escape sequences in what a student controls, shown as text before the grader prints or keeps it.

A submission's outputs, answers and file or folder names may hold control characters: ``ESC [ 2 J``
clears a terminal, ``ESC ] 52 ; c ; ...`` writes its clipboard, the one-character ``CSI`` (``0x9b``) does
what ``ESC [`` does. A progress line printed to an instructor's terminal, or a feedback page that
someone reads with ``cat``, must not carry them: :func:`disarm` writes each control character as its
Python escape (``\\x1b``), which a terminal prints instead of acting on.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # C0, DEL and C1: every character of Unicode's category Cc


def disarm(text: str, keep: str = "") -> str:
    """``text`` with every control character not in ``keep`` (say ``"\\n\\t"``) written as its escape."""
    return _CONTROL.sub(lambda m: m[0] if m[0] in keep else m[0].encode("unicode_escape").decode("ascii"), text)


def write_csv(path: Path, rows: list[list], quote_all: bool = False) -> Path:
    """Write ``rows`` to the CSV file ``path`` (names and messages come from submissions: each field disarmed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        quoting = csv.QUOTE_ALL if quote_all else csv.QUOTE_MINIMAL
        csv.writer(f, quoting=quoting).writerows([[disarm(str(field)) for field in row] for row in rows])
    return path
