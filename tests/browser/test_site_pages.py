"""Every page of the built site, in chromium: a clean console, typeset math, figures with alt text,
widgets that render (explorers with posenc's numbers), no serious accessibility problems, a weight within budget,
and glossary terms that show their definition when the pointer rests on them or the keyboard focuses them."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from .conftest import SITE, assert_same_numbers

pytestmark = pytest.mark.browser
BUDGET_BYTES = 2_500_000  # the heaviest page's first visit must transfer at most 2.5 MB (everything is local)


def test_page_loads_without_console_errors(report):
    assert report.console_errors == [], f"console errors on {report.rel} (failed requests: {report.failed})"


def test_page_loads_nothing_that_is_missing_or_offline(report):
    assert report.failed == [], f"requests for files of the site that failed on {report.rel}"
    assert report.refused == [], f"{report.rel} asks other hosts for files that have no local copy in node_modules"


def test_every_formula_is_typeset(report):
    facts = report.facts
    assert facts["typeset"] == facts["math"], f"{facts['math'] - facts['typeset']} formulas left as raw TeX"
    assert facts["mathErrors"] == 0, "MathJax reported errors in some formulas"


def test_every_figure_loads_and_has_alt_text(report):
    broken = [image["src"] for image in report.facts["images"] if not image["loaded"]]
    unlabelled = [image["src"] for image in report.facts["images"] if not (image["alt"] or "").strip()]
    assert broken == [], "images that did not load"
    assert unlabelled == [], "images without alt text"


def test_every_widget_renders_and_every_explorer_shows_posencs_numbers(report):
    """(Every control of every kind of explorer, and what the page draws: test_site_explorers.py.)"""
    facts = report.facts
    assert facts["widgetErrors"] == 0, "a widget shows 'Error displaying widget'"
    assert len(facts["explorers"]) >= facts["widgetViews"], f"{facts['widgetViews']} views, {facts['explorers']}"
    for n, explorer in enumerate(facts["explorers"]):
        assert_same_numbers(explorer, f"{report.rel}: {explorer['kind']} explorer #{n} as loaded")


def test_page_has_no_serious_or_critical_accessibility_violations(report):
    serious = [v for v in report.violations if v["impact"] in ("serious", "critical")]
    assert serious == [], "axe-core found serious or critical violations"


def test_page_weight_stays_under_budget(report):
    weight = sum(report.site_files.values())  # the first visit's transfer, gzipped where it is text
    heaviest = sorted(report.site_files.items(), key=lambda item: -item[1])[:3]
    assert weight < BUDGET_BYTES, f"{report.rel} weighs {weight:,} bytes; heaviest files {heaviest}"


def test_search_page_finds_the_chapters(browser_site):
    page, visit = browser_site.open("search.html?q=rotation")
    try:
        page.wait_for_selector("#search-results li", timeout=15000)
        results = page.locator("#search-results li a").all_inner_texts()
        assert any("Rotation" in text for text in results), results
        assert visit.console_errors == []
    finally:
        page.close()


def glossary_definition(href: str) -> str:
    """The text of the glossary entry a term link points to, read from the built glossary page."""
    path, _, term_id = href.rpartition("#")
    glossary = SITE / re.sub(r"^(\.\./)+", "", path)
    soup = BeautifulSoup(glossary.read_text(encoding="utf-8"), "html.parser")
    term = soup.find(id=term_id)
    return " ".join(term.find_next_sibling("dd").get_text(" ").split())


def test_hovering_or_focusing_a_term_shows_its_glossary_definition(report, page_path):
    if 'class="xref std std-term"' not in (SITE / page_path).read_text(encoding="utf-8"):
        pytest.skip("no glossary term on the page")
    seen = report.glossary
    assert seen is not None, f"the glossary terms of {page_path} are not marked for the tooltip script"
    assert seen == {"href": seen["href"], "hidden at first": True, "shown on hover": True,
                    "text": glossary_definition(seen["href"]), "described by": "glossary-tooltip",
                    "hidden when the pointer leaves": True, "shown on focus": True, "hidden on Escape": True}
