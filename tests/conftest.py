"""Shared fixtures: the repository root and the built site (made by `make book`, which `make test` runs)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
SITE = Path(os.environ.get("BOOK_HTML", ROOT / "_build" / "html"))  # BOOK_HTML: test a site built elsewhere

settings.register_profile("book", max_examples=60, deadline=None)
settings.load_profile("book")


@pytest.fixture(scope="session")
def site() -> Path:
    """The built HTML site; a clear failure (not a skip) when the book was not built first."""
    if not (SITE / "index.html").is_file():
        pytest.fail(f"no built site at {SITE}: run `make book` first (`make test` does it for you)")
    return SITE
