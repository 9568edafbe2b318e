"""Lighthouse (npm lighthouse@12, mobile defaults) on the chapter pages that differ in kind, served by the site
alone: accessibility, best practices and SEO score 100. Performance is a timing, so it is a benchmark
(benchmarks/lighthouse.py, on every chapter, reported in the appendix), not a test.

Every page shares one template; what a page adds is its content and, in three chapters, explorers (scripts and
widgets). So Lighthouse audits each page with an explorer and the largest page without one (about 17 s a page),
while the checks that every page gets (test_site_pages.py: axe-core's accessibility rules, a clean console,
alt texts, typeset math) cover the rest."""

from __future__ import annotations

import pytest

from .conftest import SITE
from .harness import lighthouse_failures, lighthouse_scores, run_lighthouse, site_pages

pytestmark = pytest.mark.browser

ASSERTED = ("accessibility", "best-practices", "seo")


def chapter_pages() -> list[str]:
    """The chapters with an explorer, and the largest of the others."""
    if not (SITE / "index.html").is_file():
        return ["(no built site)"]
    chapters = {page: (SITE / page).read_text(encoding="utf-8") for page in site_pages(SITE)
                if page.startswith("chapters/")}
    explorers = [page for page, html in chapters.items() if "data-explorer" in html]
    plain = [page for page in chapters if page not in explorers]
    return sorted(explorers + [max(plain, key=lambda page: len(chapters[page]))] if plain else explorers)


@pytest.mark.parametrize("chapter", chapter_pages())
def test_lighthouse_accessibility_best_practices_and_seo_score_100(browser_site, chapter):
    report = run_lighthouse(browser_site.server.url(chapter), ASSERTED)
    scores = lighthouse_scores(report)
    below = {category: lighthouse_failures(report, category) for category in ASSERTED if scores[category] < 100}
    assert below == {}, f"{chapter}: Lighthouse scores {scores}; audits that failed: {below}"
