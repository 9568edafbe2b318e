#!/usr/bin/env python3
"""Build the book strictly, never serving notebook outputs computed with older package sources.

Usage: python tools/build_book.py [BOOK_DIR] [--path-output DIR]

Runs ``jupyter-book build BOOK_DIR -W -n --keep-going``: a warning, a failing cell or a broken
reference makes the build, and this script, exit non-zero. Notebooks are executed through
jupyter-cache, which keys each notebook on its code cells only; a change to the package under
``BOOK_DIR/src`` would otherwise leave stale outputs in place, and Sphinx, seeing an unchanged
notebook, would not even ask. So the script fingerprints every file under ``src/`` and, whenever the
fingerprint changes, empties the execution cache and Sphinx's saved environment (``.doctrees``).
The HTML folder is rewritten from scratch on every build, so that a page removed from the book does
not linger on the site.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import subprocess
import sys
from pathlib import Path


def sources_fingerprint(src: Path) -> str:
    """SHA-256 over the relative paths and contents of every file under ``src`` (caches excluded)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in src.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(str(path.relative_to(src)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def invalidate_stale_cache(book: Path, build: Path) -> None:
    """Delete the execution cache and the Sphinx environment under ``build`` unless they were made
    with the current sources of ``book/src``."""
    stamp = build / ".posenc-sources.sha256"
    fingerprint = sources_fingerprint(book / "src") if (book / "src").is_dir() else "no-src"
    if stamp.is_file() and stamp.read_text() == fingerprint:
        return
    for stale in (build / ".jupyter_cache", build / ".doctrees"):
        if stale.exists():
            print(f"build_book: sources under {book / 'src'} changed; removing {stale}")
            shutil.rmtree(stale)
    build.mkdir(parents=True, exist_ok=True)
    stamp.write_text(fingerprint)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("book", nargs="?", default=".", type=Path)
    parser.add_argument("--path-output", type=Path, help="build into DIR/_build instead of BOOK_DIR/_build")
    args = parser.parse_args()
    book = args.book.resolve()
    build = (args.path_output.resolve() if args.path_output else book) / "_build"
    invalidate_stale_cache(book, build)
    shutil.rmtree(build / "html", ignore_errors=True)
    jupyter_book = Path(sys.executable).with_name("jupyter-book")
    command = [str(jupyter_book), "build", str(book), "-W", "-n", "--keep-going"]
    if args.path_output:
        command += ["--path-output", str(args.path_output.resolve())]
    returncode = subprocess.call(command)
    if returncode:
        print(f"build_book: FAILED (exit {returncode}); see the warnings above", file=sys.stderr)
    else:
        print(f"build_book: open {build / 'html' / 'index.html'}")
    return returncode


if __name__ == "__main__":
    sys.exit(main())
