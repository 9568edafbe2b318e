"""Glossary terms on the site show their definition when the pointer rests on them or the keyboard
focuses them; the definition is the one on the glossary page."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from .conftest import SITE
from .harness import site_pages

pytestmark = pytest.mark.browser


def glossary_definition(href: str) -> str:
    """The text of the glossary entry a term link points to, read from the built glossary page."""
    path, _, term_id = href.rpartition("#")
    glossary = SITE / re.sub(r"^(\.\./)+", "", path)
    soup = BeautifulSoup(glossary.read_text(encoding="utf-8"), "html.parser")
    term = soup.find(id=term_id)
    return " ".join(term.find_next_sibling("dd").get_text(" ").split())


def pages_with_terms() -> list[str]:
    if not (SITE / "index.html").is_file():
        return ["(no built site)"]
    return [p for p in site_pages(SITE) if 'class="xref std std-term"' in (SITE / p).read_text(encoding="utf-8")]


@pytest.mark.parametrize("term_page", pages_with_terms())
def test_hovering_or_focusing_a_term_shows_its_glossary_definition(browser_site, term_page):
    page, visit = browser_site.open(term_page)
    try:
        term = page.locator("a.glossary-term").first
        tooltip = page.locator("#glossary-tooltip")
        definition = glossary_definition(term.get_attribute("href"))
        assert tooltip.is_hidden()
        term.hover()
        assert tooltip.is_visible()
        assert " ".join(tooltip.inner_text().split()) == definition
        assert term.get_attribute("aria-describedby") == "glossary-tooltip"
        page.mouse.move(0, 0)
        assert tooltip.is_hidden()
        term.focus()
        assert tooltip.is_visible()
        page.keyboard.press("Escape")
        assert tooltip.is_hidden()
        assert visit.console_errors == []
    finally:
        page.close()
