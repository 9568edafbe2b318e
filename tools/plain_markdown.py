"""Write a resolved Sphinx doctree of a notebook page as plain Jupyter cells (no MyST left).

The plain edition of a page is what Colab, Binder's JupyterLab and VS Code can show: CommonMark with
``$``-math. :func:`notebook_cells` walks the doctree that Sphinx has resolved for the website -- glued
values pasted in, cross-references carrying their numbers -- and turns it into Markdown cells, with the
page's code cells (sources only) at the places where the page shows them:

- glued numbers are text; glued figures are images embedded in the Markdown (``data:`` URIs, which
  Colab renders; it ignores cell attachments), with their figure number and caption;
- theorems, proofs, definitions, ... are block quotes headed by their kind and number, as on the page;
- terms, citations, page, figure and equation references are links into the website, with their text
  and numbers; numbered equations carry their number as ``\\tag``;
- admonitions are block quotes, dropdowns are headings, ``(label)=`` targets disappear.

A node this writer does not know is an error (:class:`UnknownNode`), so nothing is dropped silently.
"""

from __future__ import annotations

import base64
import mimetypes
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import nbformat
from docutils import nodes

MARKDOWN_SPECIALS = re.compile(r"([\\`*_\[\]<>$|#])")


class UnknownNode(ValueError):
    """The doctree holds a node the plain edition cannot write."""


@dataclass
class Page:
    """What the writer needs to know about the page besides its doctree.

    ``link(node)`` turns a reference node into an absolute URL; ``number(node, kind)`` gives the number
    the website shows for a figure, theorem or equation node (``""`` when unnumbered); ``image(uri)``
    gives the path of an image file; ``notebook`` is the page's source notebook (its code cells are
    copied from it).
    """

    link: Callable[[nodes.Element], str]
    number: Callable[[nodes.Element, str], str]
    image: Callable[[str], Path]
    notebook: nbformat.NotebookNode
    figure_format: str = "Fig. %s"


def escape(text: str) -> str:
    """Text as Markdown that shows it literally (one line: whitespace runs collapse)."""
    return MARKDOWN_SPECIALS.sub(r"\\\1", re.sub(r"\s+", " ", text))


def code_span(text: str) -> str:
    ticks = "`" * (max((len(m) for m in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


class Writer:
    """Turns one resolved doctree into notebook cells (see the module docstring)."""

    def __init__(self, page: Page):
        self.page = page
        self.cells: list[nbformat.NotebookNode] = []
        self.blocks: list[str] = []  # Markdown blocks of the cell being written
        self.emitted: set[int] = set()
        self.code_indices = [i for i, c in enumerate(page.notebook.cells) if c.cell_type == "code"]

    # ------------------------------------------------------------------ cells

    def flush(self) -> None:
        text = "\n\n".join(b for b in self.blocks if b.strip()).strip()
        if text:
            self.cells.append(nbformat.v4.new_markdown_cell(text))
        self.blocks = []

    def code_cell(self, index: int) -> None:
        """Emit every code cell of the notebook up to ``index`` not yet emitted (cells the page removes
        still run, so that the notebook runs top to bottom as the build did)."""
        self.flush()
        for i in [i for i in self.code_indices if i <= index and i not in self.emitted]:
            source = self.page.notebook.cells[i]
            tags = list(source.metadata.get("tags", []))
            metadata = {"tags": tags} if tags else {}
            if {"remove-cell", "remove-input"} & set(tags):
                metadata["jupyter"] = {"source_hidden": True}
            self.cells.append(nbformat.v4.new_code_cell(source.source, metadata=metadata))
            self.emitted.add(i)

    def write(self, document: nodes.document) -> list[nbformat.NotebookNode]:
        for child in document.children:
            self.block(child, level=1)
        self.code_cell(max(self.code_indices, default=-1))
        self.flush()
        return self.cells

    # ------------------------------------------------------------------ blocks

    def block(self, node: nodes.Node, level: int) -> None:
        """Write a block-level node (appending to ``self.blocks`` or emitting cells)."""
        if isinstance(node, nodes.section):
            self.flush()
            for child in node.children:
                self.block(child, level + 1 if not isinstance(child, nodes.title) else level)
            return
        if isinstance(node, nodes.title):
            self.blocks.append("#" * min(level, 6) + " " + self.inline(node))
            return
        if isinstance(node, (nodes.target, nodes.comment, nodes.substitution_definition)):
            return
        if isinstance(node, nodes.container) and node.get("nb_element") == "cell_code":
            self.code_cell(int(node["cell_index"]))
            return
        if type(node).__name__ == "dropdown_main":  # sphinx-design, after its transform
            self.dropdown(node, level)
            return
        self.blocks.append(self.render_block(node, level))

    def render_block(self, node: nodes.Node, level: int) -> str:
        """A block node as Markdown text (no code cells inside)."""
        kind = type(node).__name__
        if isinstance(node, nodes.paragraph):
            return self.inline(node)
        if isinstance(node, (nodes.bullet_list, nodes.enumerated_list)):
            return self.listing(node, level)
        if isinstance(node, nodes.math_block):
            return self.math_block(node)
        if isinstance(node, nodes.literal_block):
            return f"```{node.get('language', '')}\n{node.astext()}\n```"
        if isinstance(node, nodes.figure):
            return self.figure(node)
        if isinstance(node, nodes.table):
            return self.table(node)
        if isinstance(node, nodes.block_quote):
            return quote(self.blocks_of(node.children, level))
        if kind.endswith("_node") and node.get("realtype"):  # sphinx-proof: theorem_node, definition_node, ...
            return self.numbered_box(node, level)
        if kind == "proof_node":
            return self.blocks_of(node.children, level)
        if isinstance(node, nodes.admonition) and "proof" in node["classes"]:
            return self.proof(node, level)
        if isinstance(node, nodes.Admonition):
            return self.admonition(node, level)
        if isinstance(node, nodes.section):  # a section inside a box (sphinx-proof's content)
            return self.blocks_of(node.children, level)
        if isinstance(node, nodes.raw) and re.fullmatch(r"\s*<script[\s>].*</script>\s*", node.astext(), re.S):
            return ""  # a script for the website (sphinx-thebe's configuration), not prose
        if isinstance(node, nodes.rubric):
            return "#" * min(level, 6) + " " + self.inline(node)
        if isinstance(node, (nodes.target, nodes.comment)):
            return ""
        if isinstance(node, nodes.container) and not node.get("nb_element"):
            return self.blocks_of(node.children, level)
        if isinstance(node, nodes.definition_list):
            return "\n\n".join(self.definition(item, level) for item in node.children)
        raise UnknownNode(f"plain edition: cannot write a {kind} node: {node.astext()[:80]!r}")

    def blocks_of(self, children, level: int) -> str:
        return "\n\n".join(text for child in children if (text := self.render_block(child, level)).strip())

    def dropdown(self, node: nodes.Element, level: int) -> None:
        """A dropdown's title becomes a heading one level below the section's; its content follows."""
        for child in node.children:
            if type(child).__name__ == "dropdown_title":
                title = next(n for n in child.findall(nodes.inline) if "sd-summary-text" in n["classes"])
                self.blocks.append("#" * min(level, 6) + " " + self.inline(title))
            else:
                for grandchild in child.children:
                    self.block(grandchild, level + 1)

    def listing(self, node: nodes.Element, level: int) -> str:
        items = []
        for number, item in enumerate(node.children, start=node.get("start", 1)):
            marker = f"{number}." if isinstance(node, nodes.enumerated_list) else "-"
            body = self.blocks_of(item.children, level)
            items.append(marker + " " + body.replace("\n", "\n" + " " * (len(marker) + 1)))
        return "\n".join(items)

    def definition(self, item: nodes.Element, level: int) -> str:
        terms = [self.inline(t) for t in item.findall(nodes.term)]
        body = self.blocks_of(next(item.findall(nodes.definition)).children, level)
        return f"**{'; '.join(terms)}**\n: " + body

    def math_block(self, node: nodes.Element) -> str:
        latex = node.astext().strip()
        if node.get("nowrap"):
            return f"$$\n{latex}\n$$"
        number = self.page.number(node, "displaymath") if node.get("label") else ""
        tag = f"\n\\tag{{{number}}}" if number else ""
        return f"$$\n{latex}{tag}\n$$"

    def figure(self, node: nodes.Element) -> str:
        images = list(node.findall(nodes.image))
        if len(images) != 1:
            raise UnknownNode(f"plain edition: a figure with {len(images)} images")
        image = images[0]
        path = self.page.image(image["uri"])
        mime = mimetypes.guess_type(path.name)[0] or "image/png"
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        alt = escape(image.get("alt", ""))
        captions = list(node.findall(nodes.caption))
        number = self.page.number(node, "figure")
        label = f"**{self.page.figure_format % number}** " if number else ""
        caption = label + (self.inline(captions[0]) if captions else "")
        return f"![{alt}](data:{mime};base64,{data})" + (f"\n\n{caption.strip()}" if caption.strip() else "")

    def table(self, node: nodes.Element) -> str:
        rows = []
        for row in node.findall(nodes.row):
            cells = [" ".join(self.inline(p) for p in entry.findall(nodes.paragraph)).replace("|", "\\|")
                     for entry in row.children]
            rows.append("| " + " | ".join(cells) + " |")
        header = any(True for _ in node.findall(nodes.thead))
        columns = rows[0].count(" | ") + 1 if rows else 0
        rule = "|" + "---|" * columns
        if not header:
            rows.insert(0, "|" + " |" * columns)
        rows.insert(1, rule)
        return "\n".join(rows)

    def numbered_box(self, node: nodes.Element, level: int) -> str:
        """A sphinx-proof box: ``**Theorem 4.1** (title)`` and its content, as a block quote."""
        kind = node["realtype"].title()
        number = self.page.number(node, node.get("countertype", "")) if node.get("countertype") else ""
        titles = [c for c in node.children if isinstance(c, nodes.title)]
        title = self.inline(titles[0]).strip() if titles else ""
        head = f"**{kind}{' ' + number if number else ''}**" + (f" {title}" if title else "")
        body = self.blocks_of([c for c in node.children if not isinstance(c, nodes.title)], level)
        return quote(head + "\n\n" + body)

    def proof(self, node: nodes.Element, level: int) -> str:
        body = self.blocks_of(node.children, level)
        body = re.sub(r"^Proof\\?\. ", "*Proof.* ", body)
        return quote(body + " $\\blacksquare$")

    def admonition(self, node: nodes.Element, level: int) -> str:
        titles = [c for c in node.children if isinstance(c, nodes.title)]
        title = self.inline(titles[0]) if titles else type(node).__name__.title()
        body = self.blocks_of([c for c in node.children if not isinstance(c, nodes.title)], level)
        return quote(f"**{title}**\n\n{body}")

    # ------------------------------------------------------------------ inline

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
            return f"[{self.inline(node)}]({self.page.link(node)})"
        if isinstance(node, (nodes.inline, nodes.caption, nodes.title, nodes.term, nodes.abbreviation)):
            return self.inline(node)
        if isinstance(node, (nodes.target, nodes.comment)):
            return ""
        if isinstance(node, nodes.image):
            return ""
        if isinstance(node, nodes.footnote_reference):
            return f"[{node.astext()}]"
        raise UnknownNode(f"plain edition: cannot write an inline {type(node).__name__}: {node.astext()[:80]!r}")


def quote(text: str) -> str:
    """``text`` as a Markdown block quote."""
    return "\n".join("> " + line if line else ">" for line in text.splitlines())


def notebook_cells(document: nodes.document, page: Page) -> list[nbformat.NotebookNode]:
    """The plain edition's cells for a resolved page ``document`` (see the module docstring)."""
    return Writer(page).write(document)
