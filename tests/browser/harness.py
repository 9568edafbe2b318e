"""The browser tests' harness: the built site over http, Debian's chromium, and nothing from anywhere else.

The site serves every file its pages load (the math is typeset at build time and uses MathJax's fonts;
require.js, the widget manager and anywidget are copied into ``_static/vendor/``), so the browser is given
nothing but the site (tests/browser/conftest.py refuses every other request), with text gzipped as GitHub
Pages serves it.
"""

from __future__ import annotations

import functools
import gzip
import io
import json
import mimetypes
import os
import subprocess
import threading
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
# The npm packages the tests themselves use; `npm ci` installs them (see package.json).
NPM_PACKAGES = ("axe-core", "lighthouse")
LIGHTHOUSE = NODE_MODULES / "lighthouse" / "cli" / "index.js"
COMPRESSED_SUFFIXES = {".html", ".js", ".css", ".svg", ".json", ".txt", ".xml", ".map"}  # as GitHub Pages


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
        missing.append("the Python package playwright is not installed (it is pinned in requirements/test.txt)")
    return missing


@functools.cache
def _gzipped(path: Path, mtime_ns: int) -> bytes:
    return gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)


def transfer_size(path: Path) -> int:
    """Bytes a first visit transfers for ``path``: gzipped for text files (as GitHub Pages sends them)."""
    if path.suffix in COMPRESSED_SUFFIXES:
        return len(_gzipped(path, path.stat().st_mtime_ns))
    return path.stat().st_size


class _SiteHandler(SimpleHTTPRequestHandler):
    """Serves the site's files, text gzipped when the browser accepts it; no logging."""

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        gzip_ok = "gzip" in self.headers.get("Accept-Encoding", "")
        if path.suffix not in COMPRESSED_SUFFIXES or not gzip_ok or not path.is_file():
            return super().send_head()
        body = _gzipped(path, path.stat().st_mtime_ns)
        self.send_response(200)
        self.send_header("Content-Type", mimetypes.guess_type(path.name)[0] or "application/octet-stream")
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=600")  # as GitHub Pages
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


def launch(playwright):
    """Debian's chromium, headless, with nothing that phones home."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)


NOT_PAGES = {"_static", "_sources", "_images", "jupyter_execute", "_sphinx_design_static"}


def site_pages(site: Path) -> list[str]:
    """Every HTML page of the built site, as paths relative to it (assets and copies of sources left out)."""
    return sorted(
        path.relative_to(site).as_posix()
        for path in site.rglob("*.html")
        if not NOT_PAGES & set(path.relative_to(site).parts)
    )


LIGHTHOUSE_CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
# The site is served over http from 127.0.0.1; every https and websocket request (any CDN) is blocked.
LIGHTHOUSE_BLOCKED = ("https://*", "wss://*", "ws://*")


def run_lighthouse(url: str, categories: tuple[str, ...] = LIGHTHOUSE_CATEGORIES) -> dict:
    """Lighthouse's JSON report for ``url`` with its mobile defaults (a simulated slow 4G network and a 4x
    slower CPU), in headless chromium, requests outside the site blocked; RuntimeError if it fails."""
    command = ["node", str(LIGHTHOUSE), url, "--quiet", "--output=json", "--output-path=stdout",
               f"--only-categories={','.join(categories)}",
               "--disable-full-page-screenshot",  # only pictures the report's elements: no audit reads it
               "--chrome-flags=--headless --no-sandbox --disable-gpu",
               *(f"--blocked-url-patterns={pattern}" for pattern in LIGHTHOUSE_BLOCKED)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=240,
                            env={**os.environ, "CHROME_PATH": str(CHROMIUM)})
    if result.returncode or not result.stdout.strip():
        raise RuntimeError(f"lighthouse failed on {url} (exit {result.returncode}): {result.stderr[-2000:]}")
    report = json.loads(result.stdout)
    if report.get("runtimeError"):
        raise RuntimeError(f"lighthouse could not load {url}: {report['runtimeError']}")
    return report


def lighthouse_scores(report: dict) -> dict[str, int]:
    """Category id -> score out of 100."""
    return {key: round(100 * (category["score"] or 0)) for key, category in report["categories"].items()}


def lighthouse_failures(report: dict, category: str) -> list[str]:
    """The audits that cost ``category`` points: ``"id: title"`` for each weighted audit that did not pass."""
    audits = report["audits"]
    return [f"{ref['id']}: {audits[ref['id']]['title']}"
            for ref in report["categories"][category]["auditRefs"]
            if ref["weight"] > 0 and audits[ref["id"]]["score"] is not None and audits[ref["id"]]["score"] < 1]
