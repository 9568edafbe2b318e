"""Sphinx extension: each page loads one stylesheet instead of fifteen.

A chapter page lists the theme's two stylesheets and a dozen small ones from Sphinx and its extensions. Every
one of them blocks the first paint, and on a phone's connection each costs round trips before a word is shown.
Here each page's local stylesheets become one file, ``_static/bundles/<hash>.css``, made of the same files in
the same order (so the cascade is unchanged), with each ``url()`` rewritten to point where it pointed before.
Pages that list the same stylesheets share one bundle. A stylesheet that ``@import``s another is refused (inside
a bundle the browser would ignore the ``@import``): the bundle lists the imported file itself.

Rules that cannot match anything on the site are left out of the bundles: 91% of the theme's 400 kB of CSS
(Bootstrap, 1,900 Font Awesome icons) styles classes the book never uses, and a phone pays to download it and
to match it against every element before the first paint. A rule goes only when each of its selectors names a
class that appears nowhere in the site's HTML or JavaScript, not even as a word in a script (so classes that
scripts add, such as Bootstrap's ``show``, stay), nor starts with a prefix a script builds names from
(``bs-tooltip-`` + placement). Selectors with escapes, and rules in ``@keyframes`` or ``@font-face``, stay.

The theme's own stylesheets are not in Sphinx's list: ``_templates/static/webpack-macros.html`` leaves them
out of the page head, and ``THEME_STYLESHEETS`` puts them at the front of every bundle (Sphinx's ``basic.css``
first, which the theme's ``styles/theme.css`` does no more than import).
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.builders.html._assets import _CascadingStyleSheet

THEME_STYLESHEETS = ("_static/basic.css", "_static/styles/pydata-sphinx-theme.css")
BUNDLES = "_static/bundles"
URL = re.compile(r"""url\(\s*(['"]?)([^'")]+)\1\s*\)""")
IMPORT = re.compile(r"@import\b")
COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
CHARSET = re.compile(r"@charset\s+\"[^\"]*\"\s*;")  # valid only at the top of a file (comments: drop_unused_rules)


def is_local(url: str) -> bool:
    return not re.match(r"^(?:[a-z][a-z0-9+.-]*:|//|#|/)", url, re.IGNORECASE)


def rebase(css: str, source: str, target_dir: str) -> str:
    """``css`` from the file ``source`` (a path inside the site) with its relative ``url()``s made relative to
    ``target_dir``, so that they name the same files from there."""

    def one(match: re.Match) -> str:
        quote, url = match.groups()
        if not is_local(url):
            return match.group(0)
        path, *query = re.split(r"(?=[?#])", url, maxsplit=1)  # query: ["?v=1"] or ["#id"] or []
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(source), path))
        return f"url({quote}{posixpath.relpath(resolved, target_dir)}{''.join(query)}{quote})"

    return URL.sub(one, css)


def bundle_part(site: Path, source: str, target_dir: str) -> str:
    """The stylesheet ``source`` with its ``url()``s rebased onto ``target_dir`` and its ``@charset`` dropped; a
    ValueError when it has an ``@import``."""
    css = CHARSET.sub("", (site / source).read_text(encoding="utf-8"))
    if IMPORT.search(COMMENT.sub("", css)):
        raise ValueError(f"css_bundle: {source} imports a stylesheet: list that one in the bundle instead")
    return rebase(css, source, target_dir)


WORD = re.compile(r"[A-Za-z0-9_-]+")
CLASS = re.compile(r"\.(-?[_a-zA-Z][_a-zA-Z0-9-]*)")
NOT = re.compile(r":not\([^()]*\)")
CLASS_ATTRIBUTE = re.compile(r'class="([^"]*)"')
SCRIPT = re.compile(r"<script([^>]*)>(.*?)</script>", re.DOTALL)
SOURCE = re.compile(r'\ssrc="([^"?#]+)')


def site_words(site: Path) -> frozenset[str]:
    """The words that can name a class on the site: those in the pages' ``class`` attributes and inline
    scripts, and every word of the script files the pages load (except ``_static/vendor/``: the widget
    manager styles its own widgets; nor the search index, which holds the book's prose)."""
    words: set[str] = set()
    scripts: set[Path] = set()
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8", errors="replace")
        for attributes, body in SCRIPT.findall(text):
            words.update(WORD.findall(body))
            scripts.update(page.parent / src for src in SOURCE.findall(attributes) if is_local(src))
        for classes in CLASS_ATTRIBUTE.findall(text):
            words.update(classes.split())
    for script in scripts:
        path = script.resolve()
        if path.is_file() and "vendor" not in path.relative_to(site.resolve()).parts and path.name != "searchindex.js":
            words.update(WORD.findall(path.read_text(encoding="utf-8", errors="replace")))
    return frozenset(words)


def may_match(selector: str, words: frozenset[str]) -> bool:
    """False only when ``selector`` requires a class none of whose hyphenated prefixes is in ``words``."""
    if "\\" in selector:
        return True
    required = CLASS.findall(NOT.sub("", selector))  # a class under :not() is one an element may lack
    return all(name in words or any(name[: i + 1] in words for i, char in enumerate(name) if char == "-")
               for name in required)


def blocks(css: str) -> list[tuple[str, str | None]]:
    """Top-level statements of ``css`` (without comments): ``(prelude, body)`` for a block, ``(statement, None)`` for
    one with ``;``."""
    statements, start, depth, quote, i = [], 0, 0, "", 0
    body_start = 0
    while i < len(css):
        char = css[i]
        if quote:
            if char == "\\":
                i += 1
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "{":
            if depth == 0:
                body_start = i
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                statements.append((css[start:body_start].strip(), css[body_start + 1:i]))
                start = i + 1
        elif char == ";" and depth == 0:
            statements.append((css[start:i + 1].strip(), None))
            start = i + 1
        i += 1
    return statements


def drop_unused_rules(css: str, words: frozenset[str]) -> str:
    """``css`` without the rules whose every selector requires a class absent from ``words`` (see above)."""
    kept = []
    for prelude, body in blocks(COMMENT.sub("", css)):  # a comment before a rule is not part of its selector
        if body is None:
            kept.append(prelude)
        elif prelude.startswith("@"):
            nested = prelude.startswith(("@media", "@supports", "@layer", "@container"))
            inner = drop_unused_rules(body, words) if nested else body
            if inner.strip() or not nested:
                kept.append(f"{prelude}{{{inner}}}")
        elif any(may_match(selector, words) for selector in prelude.split(",")):
            kept.append(f"{prelude}{{{body}}}")
    return "\n".join(kept)


def bundle_page_stylesheets(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Replace the page's local stylesheets (and the theme's) with one bundle; remember what goes into it."""
    if app.builder.format != "html" or "css_files" not in context:
        return
    kept, sources = [], list(THEME_STYLESHEETS)
    for css in context["css_files"]:
        filename = str(getattr(css, "filename", css))
        attributes = getattr(css, "attributes", {})
        plain = attributes.get("rel", "stylesheet") == "stylesheet" and attributes.get("media", "all") == "all"
        if plain and "://" not in filename and filename.endswith(".css"):
            sources.append(filename)
        else:
            kept.append(css)
    name = f"{BUNDLES}/{hashlib.sha256(chr(0).join(sources).encode()).hexdigest()[:16]}.css"
    app.builder.css_bundles = {**getattr(app.builder, "css_bundles", {}), name: sources}
    context["css_files"] = [_CascadingStyleSheet(name, priority=0), *kept]


def write_bundles(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    site = Path(app.outdir)
    words = site_words(site)
    for name, sources in getattr(app.builder, "css_bundles", {}).items():
        parts = [f"/* {source} */\n{bundle_part(site, source, posixpath.dirname(name))}" for source in sources]
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(drop_unused_rules("\n".join(parts), words), encoding="utf-8")


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", bundle_page_stylesheets, priority=990)  # after every stylesheet is listed
    app.connect("build-finished", write_bundles, priority=900)  # after site_assets writes the math stylesheet
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": False}
