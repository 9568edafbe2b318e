#!/usr/bin/env python3
"""Build the PDF edition strictly: Jupyter Book's LaTeX builder, xelatex, then the PDF into the site.

Usage: python tools/build_pdf.py [BOOK_DIR]

Runs ``jupyter-book build BOOK_DIR --builder pdflatex -W -n --keep-going`` after the same cache check as
tools/build_book.py (the HTML and the PDF builds share the execution cache), so a warning, a failing cell or a
broken reference fails the build. When a site has been built, the PDF is copied into it too (the next HTML
build also copies it, and links to it from the intro page).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

import yaml
from build_book import invalidate_stale_cache


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("book", nargs="?", default=".", type=Path)
    book = parser.parse_args().book.resolve()
    build = book / "_build"
    invalidate_stale_cache(book, build)
    latex = yaml.safe_load((book / "_config.yml").read_text(encoding="utf-8"))["latex"]
    pdf = build / "latex" / Path(latex["latex_documents"]["targetname"]).with_suffix(".pdf").name
    pdf.unlink(missing_ok=True)  # a failed build must not leave an older PDF behind
    for stale in pdf.parent.glob("*.tex"):  # LaTeX's Makefile builds every .tex there, also one of an old name
        stale.unlink()
    jupyter_book = Path(sys.executable).with_name("jupyter-book")
    returncode = subprocess.call(
        [str(jupyter_book), "build", str(book), "--builder", "pdflatex", "-W", "-n", "--keep-going"])
    if returncode or not pdf.is_file():
        print(f"build_pdf: FAILED (exit {returncode}); see the warnings above and {pdf.with_suffix('.log')}",
              file=sys.stderr)
        return returncode or 1
    if (build / "html").is_dir():
        shutil.copy2(pdf, build / "html" / pdf.name)
    print(f"build_pdf: wrote {pdf} ({pdf.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
