"""Sphinx extension: every glossary term link carries its definition as its title.

Hovering a ``{term}`` link then shows what the term means, even without JavaScript; ``_static/glossary-tooltips.js``
turns the title into a styled tooltip that also opens on keyboard focus and closes on Escape. (Why not
sphinx-tippy: the README's layout.)
"""

from __future__ import annotations

import re

from docutils import nodes
from sphinx.application import Sphinx
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
    if not hasattr(app.builder, "glossary_definitions"):  # read once per build, after every page was read
        app.builder.glossary_definitions = glossary_definitions(app.env)
    by_id = app.builder.glossary_definitions
    for ref in doctree.findall(nodes.reference):
        if not any("std-term" in child.get("classes", []) for child in ref.findall(nodes.inline)):
            continue
        target = ref.get("refid") or ref.get("refuri", "").rpartition("#")[2]
        if target in by_id:
            ref["reftitle"] = by_id[target]


def setup(app: Sphinx) -> dict:
    app.connect("doctree-resolved", add_term_titles)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
