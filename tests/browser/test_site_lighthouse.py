"""Lighthouse (npm lighthouse@12, mobile defaults), served by the site alone: accessibility, best practices and SEO
score 100. Performance is a timing, so it is a benchmark (benchmarks/lighthouse.py), not a test.

Every page shares one template; what a page adds is its content and, on some, explorers. So Lighthouse audits two
pages (about 20 s each), the one with the most explorers and the largest without one, while test_site_pages.py's
checks (axe-core's rules, a clean console, alt texts, typeset math) cover every page."""

from __future__ import annotations

import pytest

from .conftest import SITE
from .harness import lighthouse_failures, lighthouse_scores, run_lighthouse, site_pages

pytestmark = pytest.mark.browser

ASSERTED = ("accessibility", "best-practices", "seo")


def audited_pages() -> list[str]:
    """The page with the most explorers, and the largest page with none."""
    if not (SITE / "index.html").is_file():
        return ["(no built site)"]
    html = {page: (SITE / page).read_text(encoding="utf-8") for page in site_pages(SITE)}
    explorers = {page: text.count("data-explorer") for page, text in html.items()}
    plain = [page for page in html if not explorers[page]]
    return sorted({max(html, key=explorers.get), max(plain, key=lambda page: len(html[page]))})


@pytest.mark.parametrize("page", audited_pages())
def test_lighthouse_accessibility_best_practices_and_seo_score_100(browser_site, page):
    report = run_lighthouse(browser_site.server.url(page), ASSERTED)
    scores = lighthouse_scores(report)
    below = {category: lighthouse_failures(report, category) for category in ASSERTED if scores[category] < 100}
    assert below == {}, f"{page}: Lighthouse scores {scores}; audits that failed: {below}"
