"""Sphinx extension: the course outside the website -- the plain-Jupyter edition and its launch links.

- **The plain edition.** For every chapter and the explorers page (``EDITION_PAGES``), once Sphinx has
  resolved the page (every glued value pasted, every theorem, figure and equation numbered as the
  website numbers it), the page is written as a plain notebook to ``notebooks/<page>.ipynb`` of the build
  folder, next to the HTML (``_build/notebooks/``; ``tools/plain_markdown.py`` does the writing). Nothing
  is written into the source tree: the edition holds executed results, so it is published (``make
  publish`` pushes it to the release's edition branch), never committed to the main line.
- **Launch buttons.** The rocket menu's Colab and Binder entries of a page with a plain edition open
  that edition on the release's edition branch (``tools/course_links.py`` makes every URL from
  ``_config.yml``'s ``repository.url`` and ``pyproject.toml``'s version).
- **Roles.** ``{colab}`path``` and ``{binder}`path``` link a notebook on Colab and Binder, so no page writes
  the address by hand: a committed notebook (an exercise, say) at the release tag, a notebook of the plain
  edition (``notebooks/<page>.ipynb``) on the edition branch.
"""

from __future__ import annotations

import fnmatch
import posixpath
import sys
from pathlib import Path

import nbformat
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging

LOGGER = logging.getLogger(__name__)
EDITION_PAGES = ("chapters/*", "appendix/explorers")


def tools(app: Sphinx):
    """The book's ``tools/`` modules (course links and the Markdown writer)."""
    folder = Path(app.srcdir) / "tools"
    if not (folder / "course_links.py").is_file():
        raise FileNotFoundError(f"plain_edition: {folder / 'course_links.py'} is missing (the book's tools/)")
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    import course_links
    import plain_markdown

    return course_links, plain_markdown


def edition_path(app: Sphinx, docname: str) -> str:
    """The plain edition of ``docname``, relative to the build folder (and to the edition branch's root)."""
    return f"{tools(app)[0].EDITION_FOLDER}/{docname}.ipynb"


def edition_file(app: Sphinx, docname: str) -> Path:
    """Where the build writes the plain edition of ``docname``: the build folder, next to the HTML."""
    return Path(app.outdir).parent / edition_path(app, docname)


def has_edition(app: Sphinx, docname: str) -> bool:
    """Whether the build writes a plain edition of ``docname``: a page of ``EDITION_PAGES`` made from a notebook."""
    in_pages = any(fnmatch.fnmatch(docname, pattern) for pattern in EDITION_PAGES)
    return in_pages and (Path(app.srcdir) / f"{docname}.ipynb").is_file()


def linkable(app: Sphinx, path: str) -> bool:
    """Whether a launch link can open ``path``: a file of the repository, or a notebook of the plain edition."""
    folder = f"{tools(app)[0].EDITION_FOLDER}/"
    if path.startswith(folder) and path.endswith(".ipynb"):
        return has_edition(app, path.removeprefix(folder).removesuffix(".ipynb"))
    return (Path(app.srcdir) / path).is_file()


def launch_role(kind: str):
    """The ``{colab}`` / ``{binder}`` role: a link named after the service to a notebook of the release."""

    def role(name, rawtext, text, lineno, inliner, options=None, content=None):
        env = inliner.document.settings.env
        course = tools(env.app)[0].Course.of(Path(env.srcdir))
        path = text.strip()
        if not linkable(env.app, path):
            message = inliner.reporter.error(
                f"{{{name}}}: no notebook {path!r} in the repository or the plain edition", line=lineno)
            return [inliner.problematic(rawtext, rawtext, message)], [message]
        url = course.colab(path) if kind == "colab" else course.binder(path)
        return [nodes.reference(rawtext, kind.title(), refuri=url)], []

    return role


def write_edition(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Write the plain edition of ``docname`` (a resolved page) when it is one of ``EDITION_PAGES``."""
    if app.builder.format != "html" or not has_edition(app, docname):
        return
    course_links, plain_markdown = tools(app)
    course, env, srcdir = course_links.Course.of(Path(app.srcdir)), app.env, Path(app.srcdir)
    source = srcdir / f"{docname}.ipynb"
    fignumbers = env.toc_fignumbers.get(docname, {})
    here = posixpath.dirname(docname)

    def link(node: nodes.Element) -> str:
        if "refuri" in node:
            uri = node["refuri"]
            if "://" in uri or uri.startswith("mailto:"):
                return uri
            path, _, anchor = uri.partition("#")
            target = posixpath.normpath(posixpath.join(here, path)) if path else f"{docname}.html"
            return course.site + target + (f"#{anchor}" if anchor else "")
        return course.page(docname, node.get("refid", ""))

    def number(node: nodes.Element, kind: str) -> str:
        ids = node.get("ids") or []
        if kind == "displaymath" and not (app.config.numfig and app.config.math_numfig):
            return str(node.get("number") or "")
        found = next((fignumbers.get(kind, {}).get(i) for i in ids if i in fignumbers.get(kind, {})), None)
        return ".".join(map(str, found)) if found else ""

    page = plain_markdown.Page(
        link=link, number=number, image=lambda uri: srcdir / uri.lstrip("/"),
        notebook=nbformat.read(str(source), as_version=4),
        figure_format=app.config.numfig_format.get("figure", "Fig. %s"))
    try:
        cells = plain_markdown.notebook_cells(doctree, page)
    except plain_markdown.UnknownNode as error:
        LOGGER.warning(f"{error} (in {docname})", location=docname)
        return
    notebook = nbformat.v4.new_notebook(cells=cells, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"},
        "colab": {"provenance": []},
    })
    for i, cell in enumerate(notebook.cells):
        cell.id = f"cell-{i}"
    out = edition_file(app, docname)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(nbformat.writes(notebook) + "\n", encoding="utf-8")


def edition_launch_buttons(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Point the page's Colab and Binder buttons at its plain edition on the release's edition branch."""
    if not has_edition(app, pagename) or not edition_file(app, pagename).is_file():
        return
    course, path = tools(app)[0].Course.of(Path(app.srcdir)), edition_path(app, pagename)
    for group in context.get("header_buttons", []):
        if group.get("label") != "launch-buttons":
            continue
        for button in group.get("buttons", []):
            if button.get("text") == "Colab":
                button["url"] = course.colab(path)
            elif button.get("text") == "Binder":
                button["url"] = course.binder(path)


def setup(app: Sphinx) -> dict:
    app.add_role("colab", launch_role("colab"))
    app.add_role("binder", launch_role("binder"))
    app.connect("doctree-resolved", write_edition)
    app.connect("html-page-context", edition_launch_buttons, priority=600)  # after the theme's (501)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": False}
