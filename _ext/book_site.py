"""Sphinx extension for the book's website: glossary definitions on term links, and one copy of each script.

- **Glossary definitions.** Every ``{term}`` link gets its glossary definition as its ``title``, so hovering a
  term shows what it means even without JavaScript; ``_static/glossary-tooltips.js`` turns the title into a
  styled tooltip that also opens on keyboard focus.
- **Bibliography entries as list items.** Docutils marks each citation ``role="doc-biblioentry"`` inside a
  ``role="list"``; DPUB-ARIA 1.1 deprecated that role, so the list has no valid items (axe-core: critical).
  The entries become ``role="listitem"``.
- **Sphinx-design only where it is used.** sphinx-design puts 60 kB of CSS and JavaScript on every page;
  pages with no ``sd-`` component leave them out (the book's pages have a 1.5 MB budget).
- **Scripts once.** Sphinx 7.4 emits an inline script registered after the builder started twice (its
  duplicate check tells filename ``''`` from ``None``); sphinx-thebe's inline script declares
  ``const THEBE_JS_URL``, and the second copy throws ``Identifier 'THEBE_JS_URL' has already been
  declared`` on every page. Each page's script list is de-duplicated before it is rendered.
- **Scripts that do not block the first paint.** Every script file on a page is loaded with ``defer``: the
  browser fetches it while it parses the page and runs it, in page order, once the page is parsed, instead of
  stopping to fetch each one. The theme's and the extensions' scripts all wait for the page anyway; the
  inline scripts (settings such as ``toggleHintShow``) still run first, where they stand. Only Sphinx's
  ``documentation_options.js`` (405 bytes) stays as it is: the inline script of an index page sets
  ``DOCUMENTATION_OPTIONS.COLLAPSE_INDEX`` while the page is parsed. The search page keeps its scripts as
  they are: its template's own scripts (``searchtools.js``) call ``doctools.js`` as soon as they load.
- **A description for search engines.** Each page gets ``<meta name="description">`` from its own text: a
  ``description`` in its front matter (MyST's ``html_meta``) if it has one, otherwise its first paragraph of
  prose, cut at a word boundary to at most ``DESCRIPTION_LENGTH`` characters.
"""

from __future__ import annotations

import html
import re

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.builders.html._assets import _JavaScript
from sphinx.environment import BuildEnvironment


def glossary_definitions(env: BuildEnvironment) -> dict[str, str]:
    """``term id -> definition`` (plain text on one line) for every glossary term in the book."""
    std = env.get_domain("std")
    glossary_docs = {docname for (kind, _), (docname, _) in std.objects.items() if kind == "term"}
    definitions: dict[str, str] = {}
    for docname in sorted(glossary_docs):
        for item in env.get_doctree(docname).findall(nodes.definition_list_item):
            bodies = [child for child in item.children if isinstance(child, nodes.definition)]
            if not bodies:
                continue
            text = re.sub(r"\s+", " ", bodies[0].astext()).strip()
            for term in item.findall(nodes.term):
                for term_id in term["ids"]:
                    definitions[term_id] = text
    return definitions


def add_term_titles(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Give each resolved term reference in ``docname`` its definition as the link's title."""
    if not hasattr(app.builder, "glossary_definitions"):  # read once per build, after every page was read
        app.builder.glossary_definitions = glossary_definitions(app.env)
    by_id = app.builder.glossary_definitions
    for ref in doctree.findall(nodes.reference):
        if not any("std-term" in child.get("classes", []) for child in ref.findall(nodes.inline)):
            continue
        target = ref.get("refid") or ref.get("refuri", "").rpartition("#")[2]
        if target in by_id:
            ref["reftitle"] = by_id[target]


def drop_duplicate_scripts(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Keep the first of any scripts with the same source and attributes (inline bodies included)."""
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


def citations_as_list_items(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Give the entries of a citation list the role its ``role="list"`` container requires."""
    if "body" in context and 'role="doc-biblioentry"' in context["body"]:
        context["body"] = context["body"].replace('role="doc-biblioentry"', 'role="listitem"')


SPHINX_DESIGN_ASSETS = ("sphinx-design.min.css", "design-tabs.js")
SPHINX_DESIGN_CLASS = re.compile(r'class="[^"]*\bsd-')


def drop_unused_sphinx_design(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Leave sphinx-design's stylesheet and script off a page whose body has no sphinx-design component."""
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
    """Load every script file of the page with ``defer`` (unless it is ``async``, or in ``NOT_DEFERRED``);
    inline scripts stay as they are."""
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


DESCRIPTION_LENGTH = 160
NOT_PROSE = (nodes.Admonition, nodes.sidebar, nodes.topic, nodes.footnote, nodes.citation, nodes.table,
             nodes.caption, nodes.figure)


def is_prose(paragraph: nodes.paragraph) -> bool:
    """A paragraph of the page's own text: not in an admonition, a caption, a table or a cell's output."""
    node = paragraph.parent
    while node is not None:
        if isinstance(node, NOT_PROSE) or "cell_output" in node.get("classes", []):
            return False
        node = node.parent
    return True


def page_description(doctree: nodes.document, limit: int = DESCRIPTION_LENGTH) -> str:
    """The first paragraph of prose with at least eight words, on one line, cut to ``limit`` characters
    at a word boundary (with an ellipsis when cut); ``""`` for a page without one."""
    for paragraph in doctree.findall(nodes.paragraph):
        text = " ".join(paragraph.astext().split())
        if len(text.split()) >= 8 and is_prose(paragraph):
            if len(text) <= limit:
                return text
            return text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:") + "\u2026"
    return ""


def add_meta_description(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Add ``<meta name="description">`` from the page's text unless its front matter gave one."""
    metatags = context.get("metatags", "")
    if doctree is None or 'name="description"' in metatags:
        return
    description = page_description(doctree)
    if description:
        context["metatags"] = metatags + f'\n<meta name="description" content="{html.escape(description)}" />'


def setup(app: Sphinx) -> dict:
    app.connect("doctree-resolved", add_term_titles)
    app.connect("html-page-context", drop_duplicate_scripts)
    app.connect("html-page-context", citations_as_list_items)
    app.connect("html-page-context", drop_unused_sphinx_design)
    app.connect("html-page-context", add_meta_description)
    app.connect("html-page-context", defer_scripts, priority=950)  # after every handler that adds scripts
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": False}
