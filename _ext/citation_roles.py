"""Sphinx extension: the bibliography's entries are list items.

Docutils marks each citation ``role="doc-biblioentry"`` inside a ``role="list"``; DPUB-ARIA 1.1 deprecated that
role, so the list has no valid items (axe-core: critical). The entries become ``role="listitem"``.
"""

from __future__ import annotations

from sphinx.application import Sphinx


def citations_as_list_items(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if "body" in context and 'role="doc-biblioentry"' in context["body"]:
        context["body"] = context["body"].replace('role="doc-biblioentry"', 'role="listitem"')


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", citations_as_list_items)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
