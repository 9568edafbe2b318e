"""The built site read as files (no browser): links, launch buttons, the glossary, descriptions, widget pins.

The browser checks (console, requests to other hosts, math, figures, explorers, glossary tooltips, accessibility,
weight) are in tests/browser/; CI always runs them (CI=true installs chromium).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

from browser.harness import site_pages
from conftest import ROOT, soup
from course_links import Course

# Terms the seed lesson defines in its own glossary, and a few that the book's chapters rest on.
REQUIRED_TERMS = [
    "position encoding", "rotary position embedding", "RoPE", "sinusoidal position encoding", "frequency ladder",
    "wavelength", "offset", "aliasing", "Toeplitz matrix", "circulant matrix", "permutation equivariance",
    "KV cache", "ALiBi", "interleaved layout", "half layout", "learned absolute position embedding",
]


def pages(site: Path) -> list[Path]:
    return [site / page for page in site_pages(site)]


@cache
def ids_of(path: Path) -> frozenset[str]:
    return frozenset(tag["id"] for tag in soup(path).find_all(id=True)) | frozenset(
        tag["name"] for tag in soup(path).find_all("a", attrs={"name": True}))


def test_internal_links_resolve(site):
    broken = []
    for page in pages(site):
        base = "/" + page.relative_to(site).as_posix()
        for tag in soup(page).find_all(["a", "link", "img", "script", "iframe", "source"]):
            url = tag.get("href") or tag.get("src")
            if not url or re.match(r"^[a-z][a-z0-9+.-]*:|^//", url, re.IGNORECASE):
                continue  # external (http:, mailto:, data:, javascript:) or no link at all
            target = urlsplit(urljoin(base, url))
            path = site / unquote(target.path).lstrip("/")
            if path.is_dir():
                path = path / "index.html"
            if not path.is_file():
                broken.append(f"{base}: {url} (no file {path.relative_to(site)})")
            elif target.fragment and path.suffix == ".html" and unquote(target.fragment) not in ids_of(path):
                broken.append(f"{base}: {url} (no id {target.fragment!r} in {path.relative_to(site)})")
    assert broken == [], "broken internal links:\n" + "\n".join(broken)


def test_launch_buttons_open_each_notebook_page_on_colab_and_binder(site):
    """Each notebook page's rocket opens its plain edition (notebooks/<page>.ipynb) on the release's edition
    branch plain-v<version>, which `make publish` makes from the release and the build's notebooks/ (which the
    build writes: tests/test_plain_edition.py; the links' form: tests/test_course_links.py)."""
    course = Course.of(ROOT)
    sources = site / "_sources"
    notebook_pages = [p for p in pages(site) if (sources / p.relative_to(site).with_suffix(".ipynb")).is_file()]
    assert any(p.parent.name == "chapters" for p in notebook_pages), "no chapter page was built from a notebook"
    for page in notebook_pages:
        notebook = "notebooks/" + page.relative_to(site).with_suffix(".ipynb").as_posix()
        hrefs = [a["href"] for a in soup(page).select('a[title^="Launch on"][href]')]  # the rocket's menu
        assert sorted(hrefs) == sorted([course.colab(notebook), course.binder(notebook)]), page.name


def test_glossary_defines_the_terms_of_the_lesson_and_the_book(site):
    entries = {dt["id"]: " ".join(dt.find_next_sibling("dd").get_text(" ").split())
               for dt in soup(site / "glossary.html").select("dl.glossary dt")}
    missing = [term for term in REQUIRED_TERMS if f"term-{term.replace(' ', '-')}" not in entries
               and f"term-{term.lower().replace(' ', '-')}" not in entries]
    assert missing == [], f"glossary.md lacks {missing}"
    assert all(len(text.split()) >= 8 for text in entries.values()), "a glossary definition is a stub"


def test_the_site_serves_the_anywidget_that_python_pins(site):
    """The explorers' JavaScript talks to the Python anywidget of the build: the npm copy the site serves is the same
    release (the browser tests check that the explorers render and request nothing from other hosts)."""
    from importlib.metadata import version

    npm = json.loads((ROOT / "package.json").read_text())["dependencies"]["anywidget"]
    assert npm == version("anywidget"), f"package.json pins anywidget {npm}, Python has {version('anywidget')}"
    assert (site / "_static" / "vendor" / f"anywidget@{npm}" / "dist" / "index.js").is_file()


def test_every_page_describes_itself_for_search_engines(site):
    descriptions = {}
    for page in pages(site):
        rel = page.relative_to(site)
        if not list((site / "_sources" / rel.parent).glob(f"{rel.stem}.*")):
            continue  # no source: a page Sphinx generates (the index, search) or the redirect index.html
        meta = soup(page).find("meta", attrs={"name": "description"})
        assert meta is not None, f"{page.relative_to(site)} has no meta description"
        assert len(meta["content"].split()) >= 8 and len(meta["content"]) <= 160, meta["content"]
        descriptions[page.relative_to(site).as_posix()] = meta["content"]
    assert len(set(descriptions.values())) == len(descriptions), "two pages share a description"
    assert soup(site / "intro.html").find("link", rel="icon") is not None, "no favicon"


def test_no_reading_page_blocks_its_first_paint_on_scripts_or_more_than_one_stylesheet(site):
    for page in pages(site):
        if page.name in {"search.html", "index.html"}:
            continue  # the search page keeps Sphinx's order; index.html only redirects
        head = soup(page).head
        blocking = [s["src"] for s in head.find_all("script", src=True) if not s.has_attr("defer")
                    and not s.has_attr("async") and "documentation_options.js" not in s["src"]]
        assert blocking == [], f"{page.name}: scripts that block the first paint"
        sources = [s["src"] for s in soup(page).find_all("script", src=True)]
        assert len(sources) == len(set(sources)), f"{page.name} loads a script twice"  # inline ones: the console's
        sheets = [link["href"] for link in head.find_all("link", rel="stylesheet")]
        assert len(sheets) == 1 and "_static/bundles/" in sheets[0], f"{page.name}: {sheets}"
        assert not head.find("script", src=re.compile("mathjax", re.IGNORECASE)), f"{page.name} loads MathJax"
