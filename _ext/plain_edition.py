"""Sphinx extension: the course outside the website -- the plain-Jupyter edition and its launch links.

For every chapter and the explorers page (``EDITION_PAGES``), once Sphinx has resolved the page (every glued
value pasted, every theorem, figure and equation numbered as the website numbers it), the page is written as a
plain notebook to ``_build/notebooks/<page>.ipynb``, never into the source tree: the edition holds executed
results, so it is published (``make publish`` pushes it to the release's edition branch), not committed. The
page's Colab and Binder buttons open it there; the roles ``{colab}`path``` and ``{binder}`path``` link a
committed notebook (an exercise's student version) at the release tag (every address: ``tools/course_links.py``).

The plain edition is what Colab, Binder's JupyterLab and VS Code can show: CommonMark with ``$``-math, no MyST.
:class:`Writer` walks the resolved doctree and writes Markdown cells, with the page's code cells (sources only)
where the page shows them:

- glued numbers are text; glued figures are images embedded in the Markdown (``data:`` URIs, which
  Colab renders; it ignores cell attachments), with their figure number and caption;
- theorems, proofs, definitions, ... are block quotes headed by their kind and number, as on the page;
- terms, citations, page, figure and equation references are links into the website, with their text
  and numbers; numbered equations carry their number as ``\\tag``;
- admonitions are block quotes, dropdowns are headings, ``(label)=`` targets disappear.

It writes the kinds of node the book's pages hold, no more: any other is a build warning (:class:`UnknownNode`,
an error under ``-W``), so nothing is dropped silently.
"""

from __future__ import annotations

import base64
import fnmatch
import mimetypes
import posixpath
import re
import sys
from pathlib import Path

import nbformat
from docutils import nodes
from site_address import site_url  # a sibling extension in _ext/
from sphinx.application import Sphinx
from sphinx.util import logging

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import course_links  # noqa: E402 (the book's tools/: every address and link)

LOGGER = logging.getLogger(__name__)
EDITION_PAGES = ("chapters/*", "appendix/explorers")
MARKDOWN_SPECIALS = re.compile(r"([\\`*_\[\]<>$|#])")


def edition_path(docname: str) -> str:
    """The plain edition of ``docname``, relative to the build folder (and to the edition branch's root)."""
    return f"{course_links.EDITION_FOLDER}/{docname}.ipynb"


def edition_file(app: Sphinx, docname: str) -> Path:
    return Path(app.outdir).parent / edition_path(docname)


def has_edition(app: Sphinx, docname: str) -> bool:
    in_pages = any(fnmatch.fnmatch(docname, pattern) for pattern in EDITION_PAGES)
    return in_pages and (Path(app.srcdir) / f"{docname}.ipynb").is_file()


def launch_role(kind: str):
    """The ``{colab}`` / ``{binder}`` role: a link named after the service to a committed notebook, at the release."""

    def role(name, rawtext, text, lineno, inliner, options=None, content=None):
        env = inliner.document.settings.env
        course = course_links.Course.of(Path(env.srcdir))
        path = text.strip()
        if not (Path(env.srcdir) / path).is_file():
            message = inliner.reporter.error(f"{{{name}}}: no notebook {path!r} in the repository", line=lineno)
            return [inliner.problematic(rawtext, rawtext, message)], [message]
        url = course.colab(path) if kind == "colab" else course.binder(path)
        return [nodes.reference(rawtext, kind.title(), refuri=url)], []

    return role


class UnknownNode(ValueError):
    """The doctree holds a node the plain edition cannot write."""


def escape(text: str) -> str:
    """Text as Markdown that shows it literally (one line: whitespace runs collapse)."""
    return MARKDOWN_SPECIALS.sub(r"\\\1", re.sub(r"\s+", " ", text))


def code_span(text: str) -> str:
    ticks = "`" * (max((len(m) for m in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def quote(text: str) -> str:
    return "\n".join("> " + line if line else ">" for line in text.splitlines())


def heading(level: int, text: str) -> str:
    return "#" * min(level, 6) + " " + text


class Writer:
    """Turns the resolved doctree of the page ``docname`` into notebook cells (see the module docstring); its code
    cells are copied from the page's source notebook."""

    def __init__(self, app: Sphinx, docname: str):
        self.app, self.docname, self.site = app, docname, site_url(app.config)
        self.notebook = nbformat.read(str(Path(app.srcdir) / f"{docname}.ipynb"), as_version=4)
        self.cells: list[nbformat.NotebookNode] = []
        self.blocks: list[str] = []  # Markdown blocks of the cell being written
        self.pending = [i for i, c in enumerate(self.notebook.cells) if c.cell_type == "code"]  # not yet emitted

    def link(self, node: nodes.Element) -> str:
        """The absolute address of a reference: into the website unless it leaves it."""
        uri = node.get("refuri", "#" + node.get("refid", ""))
        if "://" in uri or uri.startswith("mailto:"):
            return uri
        path, _, anchor = uri.partition("#")
        target = posixpath.normpath(posixpath.join(posixpath.dirname(self.docname), path)) if path else \
            f"{self.docname}.html"
        return self.site + target + (f"#{anchor}" if anchor else "")

    def number(self, node: nodes.Element, kind: str) -> str:
        """The number the website shows for a figure, theorem or equation node (``""`` when unnumbered)."""
        numbers = self.app.env.toc_fignumbers.get(self.docname, {}).get(kind, {})
        found = next((numbers[i] for i in node.get("ids") or [] if i in numbers), None)
        return ".".join(map(str, found)) if found else ""

    def flush(self) -> None:
        text = "\n\n".join(b for b in self.blocks if b.strip()).strip()
        if text:
            self.cells.append(nbformat.v4.new_markdown_cell(text))
        self.blocks = []

    def code_cell(self, index: int) -> None:
        """Emit every code cell of the notebook up to ``index`` not yet emitted (cells the page removes
        still run, so that the notebook runs top to bottom as the build did); the code the page hides or folds
        away comes folded, as Jupyter and Colab fold a cell's input."""
        self.flush()
        while self.pending and self.pending[0] <= index:
            source = self.notebook.cells[self.pending.pop(0)]
            tags = list(source.metadata.get("tags", []))
            metadata = {"tags": tags} if tags else {}
            if {"remove-cell", "remove-input", "hide-input"} & set(tags):
                metadata["jupyter"] = {"source_hidden": True}
            self.cells.append(nbformat.v4.new_code_cell(source.source, metadata=metadata))

    def write(self, document: nodes.document) -> list[nbformat.NotebookNode]:
        for child in document.children:
            self.block(child, level=1)
        self.code_cell(len(self.notebook.cells))
        self.flush()
        return self.cells

    def block(self, node: nodes.Node, level: int) -> None:
        """Write a block-level node (appending to ``self.blocks`` or emitting cells)."""
        if isinstance(node, nodes.section):
            self.flush()
            for child in node.children:
                self.block(child, level + 1 if not isinstance(child, nodes.title) else level)
        elif isinstance(node, nodes.title):
            self.blocks.append(heading(level, self.inline(node)))
        elif isinstance(node, nodes.container) and node.get("nb_element") == "cell_code":
            self.code_cell(int(node["cell_index"]))
        elif type(node).__name__ == "dropdown_main":  # sphinx-design: its title becomes a heading
            for child in node.children:
                if type(child).__name__ == "dropdown_title":
                    title = next(n for n in child.findall(nodes.inline) if "sd-summary-text" in n["classes"])
                    self.blocks.append(heading(level, self.inline(title)))
                else:
                    for grandchild in child.children:
                        self.block(grandchild, level + 1)
        else:
            self.blocks.append(self.render_block(node, level))

    def render_block(self, node: nodes.Node, level: int) -> str:
        """A block node as Markdown text (no code cells inside)."""
        kind = type(node).__name__
        if isinstance(node, nodes.paragraph):
            return self.inline(node)
        if isinstance(node, (nodes.bullet_list, nodes.enumerated_list)):
            return self.listing(node, level)
        if isinstance(node, nodes.math_block):
            number = self.number(node, "displaymath") if node.get("label") and not node.get("nowrap") else ""
            return f"$$\n{node.astext().strip()}" + (f"\n\\tag{{{number}}}" if number else "") + "\n$$"
        if isinstance(node, nodes.literal_block):
            return f"```{node.get('language', '')}\n{node.astext()}\n```"
        if isinstance(node, nodes.figure):
            return self.figure(node)
        if isinstance(node, nodes.table):
            return self.table(node)
        if kind.endswith("_node") and node.get("realtype"):  # sphinx-proof: theorem_node, definition_node, ...
            number = self.number(node, node.get("countertype", ""))
            return self.box(node, level, f"{node['realtype'].title()}{' ' + number if number else ''}")
        if kind == "proof_node" or isinstance(node, nodes.section):  # a section inside a box (sphinx-proof)
            return self.blocks_of(node.children, level)
        if isinstance(node, nodes.admonition) and "proof" in node["classes"]:
            body = re.sub(r"^Proof\\?\. ", "*Proof.* ", self.blocks_of(node.children, level))
            return quote(body + " $\\blacksquare$")
        if isinstance(node, nodes.Admonition):
            return self.box(node, level)
        if isinstance(node, nodes.raw) and re.fullmatch(r"\s*<script[\s>].*</script>\s*", node.astext(), re.S):
            return ""  # a script for the website (sphinx-thebe's configuration), not prose
        if isinstance(node, (nodes.target, nodes.comment, nodes.substitution_definition)):
            return ""
        raise UnknownNode(f"plain edition: cannot write a {kind} node: {node.astext()[:80]!r}")

    def blocks_of(self, children, level: int) -> str:
        return "\n\n".join(text for child in children if (text := self.render_block(child, level)).strip())

    def box(self, node: nodes.Element, level: int, kind: str = "") -> str:
        """A theorem (``kind``: ``Theorem 4.1``, then its title) or an admonition (its title, else its kind) with
        its content, as a block quote."""
        titles = [c for c in node.children if isinstance(c, nodes.title)]
        title = self.inline(titles[0]) if titles else ""
        head = f"**{kind}**" + (f" {title}" if title else "") if kind else f"**{title or type(node).__name__.title()}**"
        body = self.blocks_of([c for c in node.children if not isinstance(c, nodes.title)], level)
        return quote(head + "\n\n" + body)

    def listing(self, node: nodes.Element, level: int) -> str:
        items = []
        for number, item in enumerate(node.children, start=node.get("start", 1)):
            marker = f"{number}." if isinstance(node, nodes.enumerated_list) else "-"
            body = self.blocks_of(item.children, level)
            items.append(marker + " " + body.replace("\n", "\n" + " " * (len(marker) + 1)))
        return "\n".join(items)

    def figure(self, node: nodes.Element) -> str:
        image = next(node.findall(nodes.image))
        path = Path(self.app.srcdir) / image["uri"].lstrip("/")
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        number = self.number(node, "figure")
        label = f"**{self.app.config.numfig_format.get('figure', 'Fig. %s') % number}** " if number else ""
        captions = list(node.findall(nodes.caption))
        caption = (label + (self.inline(captions[0]) if captions else "")).strip()
        image_markdown = f"![{escape(image.get('alt', ''))}](data:{mimetypes.guess_type(path.name)[0]};base64,{data})"
        return image_markdown + (f"\n\n{caption}" if caption else "")

    def table(self, node: nodes.Element) -> str:
        """A table with its header row (MyST's tables always have one)."""
        rows = ["| " + " | ".join(" ".join(self.inline(p) for p in entry.findall(nodes.paragraph)).replace("|", "\\|")
                                  for entry in row.children) + " |" for row in node.findall(nodes.row)]
        return "\n".join([rows[0], "|" + "---|" * (rows[0].count(" | ") + 1), *rows[1:]])

    def inline(self, node: nodes.Node) -> str:
        return "".join(self.inline_part(child) for child in node.children).strip()

    def inline_part(self, node: nodes.Node) -> str:
        if isinstance(node, nodes.Text):
            return escape(str(node))
        if isinstance(node, nodes.math):
            return f"${node.astext().strip()}$"
        if isinstance(node, nodes.literal):
            return code_span(node.astext())
        if isinstance(node, nodes.emphasis):
            return f"*{self.inline(node)}*"
        if isinstance(node, nodes.strong):
            return f"**{self.inline(node)}**"
        if isinstance(node, nodes.reference):
            return f"[{self.inline(node)}]({self.link(node)})"
        if isinstance(node, (nodes.inline, nodes.caption, nodes.title)):
            return self.inline(node)
        raise UnknownNode(f"plain edition: cannot write an inline {type(node).__name__}: {node.astext()[:80]!r}")


def write_edition(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    if app.builder.format != "html" or not has_edition(app, docname):
        return
    try:
        cells = Writer(app, docname).write(doctree)
    except UnknownNode as error:
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
    course, path = course_links.Course.of(Path(app.srcdir)), edition_path(pagename)
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
