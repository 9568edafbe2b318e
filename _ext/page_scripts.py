"""Sphinx extension: each page loads its scripts once, without blocking its first paint, and sphinx-design's
files only where it has a sphinx-design component.

- **Scripts once.** Sphinx 7.4 emits an inline script registered after the builder started twice (its
  duplicate check tells filename ``''`` from ``None``); sphinx-thebe's inline script declares
  ``const THEBE_JS_URL``, and the second copy throws ``Identifier 'THEBE_JS_URL' has already been
  declared`` on every page. Each page's script list is de-duplicated before it is rendered.
- **Sphinx-design only where it is used.** sphinx-design puts 60 kB of CSS and JavaScript on every page;
  pages with no ``sd-`` component leave them out (the book's pages have a 1.5 MB budget).
- **Scripts that do not block the first paint.** Every script file on a page is loaded with ``defer``: the
  browser fetches it while it parses the page and runs it, in page order, once the page is parsed, instead of
  stopping to fetch each one. The theme's and the extensions' scripts all wait for the page anyway; the
  inline scripts (settings such as ``toggleHintShow``) still run first, where they stand. Only Sphinx's
  ``documentation_options.js`` (405 bytes) stays as it is: the inline script of an index page sets
  ``DOCUMENTATION_OPTIONS.COLLAPSE_INDEX`` while the page is parsed. The search page keeps its scripts as
  they are: its template's own scripts (``searchtools.js``) call ``doctools.js`` as soon as they load.
"""

from __future__ import annotations

import re

from sphinx.application import Sphinx
from sphinx.builders.html._assets import _JavaScript


def drop_duplicate_scripts(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Keep the first of the scripts with the same source and attributes (inline bodies are attributes)."""
    scripts = context.get("script_files")
    if not scripts:
        return
    seen, unique = set(), []
    for script in scripts:
        filename = getattr(script, "filename", script) or ""
        key = (str(filename), tuple(sorted(getattr(script, "attributes", {}).items())))
        if key not in seen:
            seen.add(key)
            unique.append(script)
    context["script_files"] = unique


SPHINX_DESIGN_ASSETS = ("sphinx-design.min.css", "design-tabs.js")
SPHINX_DESIGN_CLASS = re.compile(r'class="[^"]*\bsd-')


def drop_unused_sphinx_design(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if SPHINX_DESIGN_CLASS.search(context.get("body", "")):
        return
    for key in ("css_files", "script_files"):
        if key in context:
            context[key] = [
                asset for asset in context[key]
                if not str(getattr(asset, "filename", asset)).endswith(SPHINX_DESIGN_ASSETS)
            ]


NOT_DEFERRED = ("_static/documentation_options.js",)  # inline scripts on index pages use what it defines
NOT_DEFERRED_PAGES = ("search",)  # searchtools.js, not in the script list, runs doctools.js's _ready at once


def defer_scripts(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if pagename in NOT_DEFERRED_PAGES:
        return
    deferred = []
    for script in context.get("script_files", []):
        attributes = getattr(script, "attributes", {})
        waits = isinstance(script, _JavaScript) and script.filename and script.filename not in NOT_DEFERRED
        if waits and not {"async", "defer"} & set(attributes):
            script = _JavaScript(script.filename, priority=script.priority, **attributes, defer="defer")
        deferred.append(script)
    context["script_files"] = deferred


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", drop_duplicate_scripts)
    app.connect("html-page-context", drop_unused_sphinx_design)
    app.connect("html-page-context", defer_scripts, priority=950)  # after every handler that adds scripts
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
