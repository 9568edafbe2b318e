"""Fixtures for the real-browser tests: one chromium for the whole session, each page visited once, every request
that leaves the site refused and recorded, as it would fail for a reader offline.

Tests are generic over the site: ``page_path`` runs over every HTML page of the built site, so chapters written
later, and explorers inserted into them, are covered too.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import numpy as np
import pytest
from conftest import SITE, need

from posenc.book.explorers import EXPLORERS

from .harness import NODE_MODULES, SiteServer, launch, missing_tools, site_pages, transfer_size

NO_SITE = "(no built site)"

READ_EXPLORER = """(root) => ({kind: root.dataset.explorer, state: JSON.parse(root.dataset.state),
  readouts: Object.fromEntries([...root.querySelectorAll('output[data-readout]')]
    .map((o) => [o.dataset.readout, JSON.parse(o.dataset.value)]))})"""  # the exact values behind what it shows

COLLECT_PAGE = """() => {
  const maths = [...document.querySelectorAll('.math')];
  return {
    math: maths.length,
    typeset: maths.filter((m) => m.querySelector('mjx-container')).length,
    mathErrors: document.querySelectorAll('mjx-merror').length,
    images: [...document.images].map((img) => ({
      src: img.getAttribute('src'), alt: img.getAttribute('alt'),
      loaded: img.complete && img.naturalWidth > 0,
    })),
    widgetViews: document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]').length,
    explorers: [...document.querySelectorAll('.posenc-explorer')].map(READ_EXPLORER),
    widgetErrors: [...document.querySelectorAll('.jupyter-widgets, .widget-subarea')]
      .filter((el) => /Error displaying widget/.test(el.textContent)).length,
  };
}""".replace("READ_EXPLORER", READ_EXPLORER)

RUN_AXE = """async () => {
  // A code block's tokens of one colour and font, side by side, have one contrast: axe's colour-contrast rule (most
  // of its time) checks one that it reads in full (two letters or digits, within the block's width), not the twins.
  const seen = new Map();
  for (const el of document.querySelectorAll('pre *')) {
    const style = getComputedStyle(el), box = el.getBoundingClientRect(), pre = el.closest('pre').getClientRects()[0];
    const key = [style.color, style.backgroundColor, style.font, style.opacity, style.textShadow].join();
    const keys = seen.get(el.parentElement) ?? seen.set(el.parentElement, new Set()).get(el.parentElement);
    const text = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.data).join('');
    if (keys.has(key)) el.dataset.twin = '';
    else if (/[A-Za-z0-9].*[A-Za-z0-9]/s.test(text) && box.left >= pre.left && box.right <= pre.right) keys.add(key);
  }
  axe.configure({rules: [{id: 'color-contrast', selector: '*:not([data-twin])'}]});
  // preload: false -- axe's CSSOM preloading resolves a stylesheet's @import against the page, not the
  // stylesheet, and asks the server for files that do not exist (only css-orientation-lock needs it).
  const result = await axe.run(document, {resultTypes: ['violations'], preload: false});
  return result.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5), count: v.nodes.length}));
}"""


@dataclass
class Visit:
    """What a tab recorded on a page; a page's report adds what its checks found."""
    rel: str
    console_errors: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # requests that left the site (all refused)
    failed: list[str] = field(default_factory=list)  # same-site requests answered >= 400 or not at all
    site_files: dict[str, int] = field(default_factory=dict)  # URL path -> bytes transferred (gzip for text)
    facts: dict = field(default_factory=dict)  # COLLECT_PAGE's
    violations: list[dict] = field(default_factory=list)  # axe-core's
    glossary: dict | None = None  # what the page's first glossary term did (probe_glossary), None without one


def watch(page, server: SiteServer, visit: Visit) -> None:
    """Record console errors, uncaught exceptions, failed requests and the site files loaded into ``visit``."""

    def on_console(message) -> None:
        if message.type == "error":
            visit.console_errors.append(message.text)

    def on_response(response) -> None:
        path = server.file_for(response.url)
        if path is None:
            return
        if response.status >= 400:
            visit.failed.append(f"{response.status} {response.url}")
        elif path.is_file():
            visit.site_files[urlsplit(response.url).path] = transfer_size(path)

    page.on("console", on_console)
    page.on("pageerror", lambda error: visit.console_errors.append(f"uncaught: {error}"))
    page.on("response", on_response)
    page.on("requestfailed", lambda request: visit.failed.append(f"{request.failure} {request.url}")
            if request.url.startswith(server.origin) else None)


WAIT_FOR_PAGE = """async () => {
  // The math was typeset when the site was built; widgets render once the manager has run, which
  // _static/vendor/widgets.js loads when an explorer comes near the screen: scroll to the first, and back.
  const viewScripts = document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]');
  const views = viewScripts.length;
  if (views) {
    viewScripts[0].parentElement.scrollIntoView();
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50)));
    window.scrollTo(0, 0);
  }
  const deadline = Date.now() + 15000;
  while (document.querySelectorAll('.posenc-explorer, .widget-subarea > *').length < views
         && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return views;
}"""


def probe_glossary(page) -> dict | None:
    """Rest the pointer on the page's first glossary term, move it away, focus the term, press Escape: whether
    the tooltip showed or hid at each step, and what it said. None on a page without a term."""
    term, tooltip = page.locator("a.glossary-term").first, page.locator("#glossary-tooltip")
    if not term.count():
        return None
    seen = {"href": term.get_attribute("href"), "hidden at first": tooltip.is_hidden()}
    term.hover()
    seen |= {"shown on hover": tooltip.is_visible(), "text": " ".join(tooltip.inner_text().split()),
             "described by": term.get_attribute("aria-describedby")}
    page.mouse.move(0, 0)
    seen["hidden when the pointer leaves"] = tooltip.is_hidden()
    term.focus()
    seen["shown on focus"] = tooltip.is_visible()
    page.keyboard.press("Escape")
    seen["hidden on Escape"] = tooltip.is_hidden()
    return seen


@functools.cache
def _pages_to_visit() -> list[str]:
    """Every page of the site but redirects (index.html), or a placeholder that fails with a clear message."""
    if not (SITE / "index.html").is_file():
        return [NO_SITE]
    return [p for p in site_pages(SITE) if 'http-equiv="refresh"' not in (SITE / p).read_text("utf-8").lower()]


def pytest_generate_tests(metafunc):
    if "page_path" in metafunc.fixturenames:
        metafunc.parametrize("page_path", _pages_to_visit(), ids=lambda page: page.removesuffix(".html"))


def assert_same_numbers(explorer: dict, where: str) -> None:
    """The readouts an explorer shows (``READ_EXPLORER``'s) are those posenc computes for the state it shows."""
    shown, computed = explorer["readouts"], EXPLORERS[explorer["kind"]](**explorer["state"]).readouts()
    assert shown.keys() == computed.keys(), f"{where}: readouts {sorted(shown)} vs posenc {sorted(computed)}"
    for name, value in computed.items():
        got = np.asarray(shown[name], dtype=float)
        assert got.shape == np.shape(value), f"{where}: {name} has shape {got.shape}"
        assert np.allclose(got, value, rtol=1e-9, atol=1e-12), f"{where}: {name} = {shown[name]}, posenc {value}"


class BrowserSite:
    """One chromium context that refuses, and records, every request that leaves the site; the site server; one
    report per page."""

    def __init__(self, server: SiteServer, context):
        self.server = server
        self.context = context
        self.visits: list[Visit] = []
        self.reports: dict[str, Visit] = {}
        context.route("**/*", self.route)

    def route(self, route) -> None:
        url = route.request.url
        if url.startswith((self.server.origin + "/", "data:", "blob:")):
            route.continue_()
            return
        if self.visits:
            self.visits[-1].refused.append(url)
        route.abort("blockedbyclient")

    def open(self, page_path: str):
        """A fresh tab on ``page_path`` with math typeset and widgets drawn; returns (page, visit)."""
        visit = Visit(page_path)
        self.visits.append(visit)
        page = self.context.new_page()
        watch(page, self.server, visit)
        page.goto(self.server.url(page_path), wait_until="load")
        page.evaluate(WAIT_FOR_PAGE)
        return page, visit

    def report(self, page_path: str) -> Visit:
        if page_path not in self.reports:
            page, visit = self.open(page_path)
            try:
                visit.facts = page.evaluate(COLLECT_PAGE)
                page.add_script_tag(path=str(NODE_MODULES / "axe-core" / "axe.min.js"))
                visit.violations = page.evaluate(RUN_AXE)
                visit.glossary = probe_glossary(page)  # last: it moves the pointer and the focus
                page.wait_for_load_state("networkidle")  # the visit records every request made, late ones too
            finally:
                page.close()
            self.reports[page_path] = visit  # only a visit whose checks all ran
        return self.reports[page_path]


@pytest.fixture(scope="session")
def browser_site(site):
    """The built site in chromium; skipped (failed when CI=true) where chromium, the tests' npm packages (axe-core,
    lighthouse) or playwright are missing."""
    missing = missing_tools()
    need(not missing, "browser tests need: " + "; ".join(missing))
    from playwright.sync_api import sync_playwright

    with SiteServer(site) as server, sync_playwright() as playwright:  # leaving playwright ends its chromium
        context = launch(playwright).new_context(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
        yield BrowserSite(server, context)


@pytest.fixture
def report(browser_site, page_path) -> Visit:
    return browser_site.report(page_path)
