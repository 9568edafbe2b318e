"""Lighthouse (npm lighthouse@12, mobile defaults) on every chapter page, served by the site alone: accessibility,
best practices and SEO score 100. Performance is a timing, so it is a benchmark (benchmarks/lighthouse.py,
reported in the appendix), not a test."""

from __future__ import annotations

import pytest

from .conftest import SITE
from .harness import lighthouse_failures, lighthouse_scores, run_lighthouse, site_pages

pytestmark = pytest.mark.browser

ASSERTED = ("accessibility", "best-practices", "seo")


def chapter_pages() -> list[str]:
    if not (SITE / "index.html").is_file():
        return ["(no built site)"]
    return [page for page in site_pages(SITE) if page.startswith("chapters/")]


@pytest.mark.parametrize("chapter", chapter_pages())
def test_lighthouse_accessibility_best_practices_and_seo_score_100(browser_site, chapter):
    report = run_lighthouse(browser_site.server.url(chapter), ASSERTED)
    scores = lighthouse_scores(report)
    below = {category: lighthouse_failures(report, category) for category in ASSERTED if scores[category] < 100}
    assert below == {}, f"{chapter}: Lighthouse scores {scores}; audits that failed: {below}"
