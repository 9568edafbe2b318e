"""Every page of the built site, in chromium: a clean console, typeset math, figures with alt text,
widgets that render, no serious accessibility problems, and a weight within budget.

A screenshot of each page lands in artifacts/screenshots/, the weights in artifacts/page-weight.md and
the accessibility results in artifacts/axe.json.
"""

from __future__ import annotations

import pytest

from .conftest import BUDGET_BYTES

pytestmark = pytest.mark.browser


def test_page_loads_without_console_errors(report):
    visit = report.visit
    assert visit.console_errors == [], f"console errors on {visit.rel} (failed requests: {visit.failed})"


def test_page_loads_nothing_that_is_missing_or_offline(report):
    visit = report.visit
    assert visit.failed == [], f"requests for files of the site that failed on {visit.rel}"
    assert visit.refused == [], f"{visit.rel} asks other hosts for files that have no local copy in node_modules"


def test_every_formula_is_typeset(report):
    facts = report.facts
    assert facts["typeset"] == facts["math"], f"{facts['math'] - facts['typeset']} formulas left as raw TeX"
    assert facts["mathErrors"] == 0, "MathJax reported errors in some formulas"


def test_every_figure_loads_and_has_alt_text(report):
    broken = [image["src"] for image in report.facts["images"] if not image["loaded"]]
    unlabelled = [image["src"] for image in report.facts["images"] if not (image["alt"] or "").strip()]
    assert broken == [], "images that did not load"
    assert unlabelled == [], "images without alt text"


def test_every_widget_renders(report):
    facts = report.facts
    assert facts["widgetErrors"] == 0, "a widget shows 'Error displaying widget'"
    assert facts["explorers"] >= facts["widgetViews"] or facts["widgetViews"] == 0, (
        f"{facts['widgetViews']} widget views on the page but only {facts['explorers']} explorers drawn"
    )


def test_page_has_no_serious_or_critical_accessibility_violations(report):
    serious = [v for v in report.violations if v["impact"] in ("serious", "critical")]
    assert serious == [], "axe-core found serious or critical violations"


def test_page_weight_stays_under_budget(report):
    weight = report.visit.weight
    heaviest = sorted(report.visit.site_files.items(), key=lambda item: -item[1])[:3]
    assert weight < BUDGET_BYTES, f"{report.visit.rel} weighs {weight:,} bytes; heaviest files {heaviest}"
    assert report.screenshot.is_file()


def test_search_page_finds_the_chapters(browser_site):
    page, visit = browser_site.open("search.html?q=rotation")
    try:
        page.wait_for_selector("#search-results li", timeout=15000)
        results = page.locator("#search-results li a").all_inner_texts()
        assert any("Rotation" in text for text in results), results
        assert visit.console_errors == []
    finally:
        page.close()
