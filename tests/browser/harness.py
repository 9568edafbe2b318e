"""The browser tests' harness: the built site over http, Debian's chromium, and local copies of the CDN files.

The pages load MathJax, require.js, the Jupyter widget manager and anywidget from CDNs, which these
machines cannot reach. Playwright's request routing answers those requests from the npm packages in
``node_modules`` (installed by ``npm ci`` from the committed ``package-lock.json``); any other request that
leaves the site is refused and recorded. A local copy never matches a CDN file's ``integrity`` hash, so the
server strips ``integrity`` attributes from the HTML it serves (and only there: the files on disk are
what a reader gets).
"""

from __future__ import annotations

import functools
import io
import json
import mimetypes
import os
import re
import threading
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parents[2]
NODE_MODULES = ROOT / "node_modules"
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
# The npm packages the pages need; `npm ci` installs them (see package.json).
NPM_PACKAGES = ("mathjax", "requirejs", "@jupyter-widgets/html-manager", "anywidget", "axe-core")
INTEGRITY = re.compile(rb'\s+integrity="[^"]*"')
NPM_CDN = re.compile(r"^https://(?:cdn\.jsdelivr\.net/npm|unpkg\.com)/((?:@[^/@]+/)?[^/@]+)@([^/]+)/(.*)$")
CDNJS_REQUIRE = re.compile(r"^https://cdnjs\.cloudflare\.com/ajax/libs/require\.js/([^/]+)/require(?:\.min)?\.js$")


def missing_tools() -> list[str]:
    """What the browser tests need and this machine lacks, as sentences (empty when all is there)."""
    missing = []
    if not CHROMIUM.is_file():
        missing.append(f"no chromium at {CHROMIUM} (as root on Debian, `make test` installs it with apt-get)")
    absent = [name for name in NPM_PACKAGES if not (NODE_MODULES / name / "package.json").is_file()]
    if absent:
        missing.append(f"npm packages missing from {NODE_MODULES}: {', '.join(absent)} (run `npm ci`)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("the Python package playwright is not installed (it is pinned in requirements.txt)")
    return missing


def _version_matches(wanted: str, installed: str) -> bool:
    """``"3"`` matches ``"3.2.2"``; ``"1.0.6"`` matches only ``"1.0.6"``."""
    return installed.split(".")[: len(wanted.split("."))] == wanted.split(".")


@functools.cache
def _installed_version(package: str) -> str | None:
    manifest = NODE_MODULES / package / "package.json"
    return json.loads(manifest.read_text())["version"] if manifest.is_file() else None


def local_copy(url: str) -> Path | None:
    """The file in ``node_modules`` that stands in for a CDN ``url``, or None when there is none.

    ``https://cdn.jsdelivr.net/npm/PKG@VERSION/PATH`` (and the same on unpkg) maps to
    ``node_modules/PKG/PATH`` when the installed version matches; require.js on cdnjs maps to the npm
    ``requirejs`` package. A path without an extension (as require.js asks for modules) gets ``.js``.
    """
    url = url.split("?", 1)[0].split("#", 1)[0]
    if match := CDNJS_REQUIRE.match(url):
        package, version, path = "requirejs", match.group(1), "require.js"
    elif match := NPM_CDN.match(url):
        package, version, path = match.groups()
    else:
        return None
    installed = _installed_version(package)
    if installed is None or not _version_matches(version, installed):
        return None
    candidates = [NODE_MODULES / package / path, NODE_MODULES / package / f"{path}.js"]
    return next((c for c in candidates if c.is_file()), None)


class _SiteHandler(SimpleHTTPRequestHandler):
    """Serves the site's files; HTML without ``integrity`` attributes; no logging."""

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if path.suffix != ".html" or not path.is_file():
            return super().send_head()
        body = INTEGRITY.sub(b"", path.read_bytes())
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def log_message(self, *args) -> None:
        pass


class SiteServer:
    """The built site on ``http://127.0.0.1:PORT/``, served from a thread."""

    def __init__(self, site: Path):
        self.site = site
        handler = functools.partial(_SiteHandler, directory=str(site))
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> SiteServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def url(self, rel: str) -> str:
        return f"{self.origin}/{rel}"

    def file_for(self, url: str) -> Path | None:
        """The file on disk behind a URL of this site (None for another origin)."""
        if not url.startswith(self.origin + "/"):
            return None
        path = self.site / unquote(urlsplit(url).path.lstrip("/"))
        return path / "index.html" if path.is_dir() else path


@dataclass
class Visit:
    """What happened while one page loaded: console errors, requests, and the files it loaded."""

    rel: str
    console_errors: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # requests to other hosts with no local copy
    failed: list[str] = field(default_factory=list)  # same-site requests answered >= 400 or not at all
    site_files: dict[str, int] = field(default_factory=dict)  # URL path -> bytes, for the page weight

    @property
    def weight(self) -> int:
        return sum(self.site_files.values())


def route_requests(context, server: SiteServer, visits: list[Visit]) -> None:
    """Answer CDN requests from node_modules, let the site through, refuse (and record) everything else."""

    def handle(route) -> None:
        url = route.request.url
        if url.startswith(server.origin + "/") or url.startswith("data:") or url.startswith("blob:"):
            route.continue_()
            return
        copy = local_copy(url)
        if copy is not None:
            content_type = mimetypes.guess_type(copy.name)[0] or "application/octet-stream"
            route.fulfill(path=str(copy), content_type=content_type, headers={"Access-Control-Allow-Origin": "*"})
            return
        if visits:
            visits[-1].refused.append(url)
        route.abort()

    context.route("**/*", handle)


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
            visit.site_files[urlsplit(response.url).path] = path.stat().st_size

    page.on("console", on_console)
    page.on("pageerror", lambda error: visit.console_errors.append(f"uncaught: {error}"))
    page.on("response", on_response)
    page.on("requestfailed", lambda request: visit.failed.append(f"{request.failure} {request.url}")
            if request.url.startswith(server.origin) else None)


def launch(playwright):
    """Debian's chromium, headless, with nothing that phones home."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)


WAIT_FOR_PAGE = """async () => {
  // MathJax typesets once its startup promise resolves; widgets render once the manager has run.
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
  const views = document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]').length;
  const deadline = Date.now() + 15000;
  while (document.querySelectorAll('.posenc-explorer, .widget-subarea > *').length < views
         && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return views;
}"""


def open_page(context, server: SiteServer, rel: str, visits: list[Visit]):
    """Open ``rel`` in a new tab, wait until math is typeset and widgets are drawn; return (page, visit)."""
    visit = Visit(rel)
    visits.append(visit)
    page = context.new_page()
    watch(page, server, visit)
    page.goto(server.url(rel), wait_until="load")
    page.wait_for_function("() => !document.querySelector('.math') || (window.MathJax && MathJax.startup)",
                           timeout=15000)
    page.evaluate(WAIT_FOR_PAGE)
    page.wait_for_load_state("networkidle")
    return page, visit


# ---- the site's pages and the explorers on them, read from the built HTML ----

NOT_PAGES = {"_static", "_sources", "_images", "jupyter_execute", "_sphinx_design_static"}
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def site_pages(site: Path) -> list[str]:
    """Every HTML page of the built site, as paths relative to it (assets and copies of sources left out)."""
    return sorted(
        path.relative_to(site).as_posix()
        for path in site.rglob("*.html")
        if not NOT_PAGES & set(path.relative_to(site).parts)
    )


def is_redirect(html: str) -> bool:
    """A page that only sends the reader elsewhere (index.html -> intro.html)."""
    return 'http-equiv="refresh"' in html[:2000].lower()


def explorer_kinds(html: str) -> list[str]:
    """The kinds (``"rope"``, ...) of the posenc explorers a page shows, in the order they appear."""
    from bs4 import BeautifulSoup

    from posenc.explorers import EXPLORERS

    kind_of = {f"{cls.__module__}.{cls.__name__}": kind for kind, cls in EXPLORERS.items()}
    soup = BeautifulSoup(html, "html.parser")
    models = {}
    for script in soup.find_all("script", type=WIDGET_STATE):
        models.update(json.loads(script.string or "{}").get("state", {}))
    kinds = []
    for script in soup.find_all("script", type=WIDGET_VIEW):
        model = models.get(json.loads(script.string or "{}").get("model_id"), {})
        anywidget_id = model.get("state", {}).get("_anywidget_id", "")
        if anywidget_id in kind_of:
            kinds.append(kind_of[anywidget_id])
    return kinds
