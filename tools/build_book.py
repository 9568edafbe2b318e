#!/usr/bin/env python3
"""Build the book strictly, never serving notebook outputs computed with older package sources.

Usage: python tools/build_book.py [--pdf] [BOOK_DIR]

Runs ``jupyter-book build BOOK_DIR -W -n --keep-going``: a warning, a failing cell or a broken
reference makes the build, and this script, exit non-zero. Notebooks are executed through
jupyter-cache, which keys each notebook on its code cells only; a change to the package the chapters
import, ``BOOK_DIR/src/posenc``, would otherwise leave stale outputs in place, and Sphinx, seeing an
unchanged notebook, would not even ask (:func:`invalidate_stale_cache`). A notebook that fails ahead of the
build (:func:`execute_ahead`) is left for the build, which executes it again and reports the failure. The HTML
and the plain notebooks are rewritten from scratch on every build, so that a page removed from the book does
not linger in them.

With ``--pdf`` (``make pdf``), the PDF edition instead: the LaTeX builder and xelatex, from the same execution
cache; the PDF is then copied into the site when one has been built (the next HTML build copies it too, and links
to it from the intro page).
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import shutil
import subprocess
import sys
from pathlib import Path

import yaml
from course_links import EDITION_FOLDER

PACKAGE = Path("src") / "posenc"


def sources_fingerprint(package: Path) -> str:
    """SHA-256 over the relative paths and contents of every file of ``package`` (pure Python and its data files)
    but those the interpreter writes into ``__pycache__``."""
    digest = hashlib.sha256()
    for path in sorted(p for p in package.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(str(path.relative_to(package)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def invalidate_stale_cache(book: Path, build: Path) -> None:
    """Delete the execution cache and the Sphinx environment under ``build`` unless they were made with the
    current sources of ``book/src/posenc``."""
    stamp = build / ".posenc-sources.sha256"
    package = book / PACKAGE
    fingerprint = sources_fingerprint(package) if package.is_dir() else "no-package"
    if stamp.is_file() and stamp.read_text() == fingerprint:
        return
    for stale in (build / ".jupyter_cache", build / ".doctrees"):
        if stale.exists():
            print(f"build_book: the sources of {package} changed; removing {stale}")
            shutil.rmtree(stale)
    build.mkdir(parents=True, exist_ok=True)
    stamp.write_text(fingerprint)


def execute_ahead(book: Path, build: Path) -> None:
    """Execute the notebooks that the execution cache under ``build`` has no outputs for, two at a time
    (jupyter-cache's own worker), with ``_config.yml``'s timeout; the largest first, so that a long one does not
    start last and finish alone. Does nothing unless the book executes notebooks through the cache."""
    from jupyter_cache import get_cache
    from jupyter_cache.executors.basic import ExecutionWorkerLocalMProc, ProcessData
    from sphinx_external_toc.parsing import parse_toc_yaml

    execute = yaml.safe_load((book / "_config.yml").read_text(encoding="utf-8")).get("execute", {})
    if execute.get("execute_notebooks") != "cache":
        return
    pages = (book / f"{name}.ipynb" for name in parse_toc_yaml(book / "_toc.yml"))  # docnames, in the book's order
    notebooks = [str(page) for page in pages if page.is_file()]
    cache = get_cache(str(build / ".jupyter_cache"))
    for notebook in notebooks:
        cache.add_nb_to_project(notebook)
    stale = sorted(cache.list_unexecuted(filter_uris=notebooks), key=lambda record: -Path(record.uri).stat().st_size)
    jobs = [ProcessData(record.pk, record.uri, cache, execute.get("timeout", 30), False) for record in stale]
    with multiprocessing.Pool(2) as pool:
        for _ in pool.imap_unordered(ExecutionWorkerLocalMProc(), jobs):
            pass


def build_html(book: Path, build: Path, jupyter_book: str) -> int:
    for edition in ("html", EDITION_FOLDER):
        shutil.rmtree(build / edition, ignore_errors=True)
    returncode = subprocess.call([jupyter_book, "build", str(book), "-W", "-n", "--keep-going"])
    if returncode:
        print(f"build_book: FAILED (exit {returncode}); see the warnings above", file=sys.stderr)
    else:
        print(f"build_book: open {build / 'html' / 'index.html'}")
    return returncode


def build_pdf(book: Path, build: Path, jupyter_book: str) -> int:
    latex = yaml.safe_load((book / "_config.yml").read_text(encoding="utf-8"))["latex"]
    pdf = build / "latex" / Path(latex["latex_documents"]["targetname"]).with_suffix(".pdf").name
    pdf.unlink(missing_ok=True)  # a failed build must not leave an older PDF behind
    for stale in pdf.parent.glob("*.tex"):  # LaTeX's Makefile builds every .tex there, also one of an old name
        stale.unlink()
    returncode = subprocess.call([jupyter_book, "build", str(book), "--builder", "pdflatex", "-W", "-n",
                                  "--keep-going"])
    if returncode or not pdf.is_file():
        print(f"build_book: FAILED (exit {returncode}); see the warnings above and {pdf.with_suffix('.log')}",
              file=sys.stderr)
        return returncode or 1
    if (build / "html").is_dir():
        shutil.copy2(pdf, build / "html" / pdf.name)
    print(f"build_book: wrote {pdf} ({pdf.stat().st_size / 1e6:.1f} MB)")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pdf", action="store_true", help="build the PDF edition instead of the website")
    parser.add_argument("book", nargs="?", default=".", type=Path)
    args = parser.parse_args()
    book = args.book.resolve()
    build = book / "_build"
    invalidate_stale_cache(book, build)
    execute_ahead(book, build)
    jupyter_book = str(Path(sys.executable).with_name("jupyter-book"))
    return (build_pdf if args.pdf else build_html)(book, build, jupyter_book)


if __name__ == "__main__":
    sys.exit(main())
