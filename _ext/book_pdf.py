"""Sphinx extension for the PDF edition (``make pdf``): explorer stills, the site's numbers, a book's back matter,
and the website's link to the PDF (``{pdf-edition}``), made only when the PDF has been built: without a TeX
toolchain there is no PDF, and no link to dangle.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from docutils import nodes
from site_address import site_url  # a sibling extension in _ext/
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.builders.latex import LaTeXBuilder
from sphinx.builders.latex.nodes import thebibliography
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective
from sphinx.util.osutil import relative_uri

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def source_docname(node: nodes.Node) -> str:
    """The document a node of the LaTeX builder's merged tree came from: the ``docname`` that
    ``inline_all_toctrees`` gives every section of an included document (its ``start_of_file`` node cannot
    be reached by walking up: it takes over the document's children without becoming their parent)."""
    while node is not None and not (isinstance(node, nodes.section | addnodes.start_of_file) and "docname" in node):
        node = node.parent
    if node is None:
        raise ValueError("book_pdf: an explorer output outside every document of the book")
    return node["docname"]


class ExplorerStills(SphinxPostTransform):
    """Replace each widget output of the LaTeX tree by the PNG of its state that the explorer's display bundle
    carries beside it (``posenc.book.explorers.stills``), and a note that links to the explorer's page on the
    website."""

    default_priority = 3  # before myst-nb's SelectMimeType (4), which keeps one output of each bundle
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        site = site_url(self.config)
        for bundle in list(self.document.findall(nodes.container)):
            if bundle.get("nb_element") != "mime_bundle":
                continue
            outputs = {child["mime_type"]: child for child in bundle.children}
            if WIDGET_VIEW not in outputs:
                continue
            images = list(outputs.get("image/png", nodes.container()).findall(nodes.image))
            if not images:
                raise ValueError(f"book_pdf: a widget output in {source_docname(bundle)} has no still image/png")
            url = f"{site}{source_docname(bundle)}.html"
            note = nodes.paragraph("", "", nodes.emphasis("", "", nodes.Text(
                "A still of the explorer in the state it opens in. On the website it responds to its controls, "
                "with no Python behind it: "), nodes.reference(url, url, refuri=url), nodes.Text(".")))
            # not a numbered figure: the website numbers none for its explorers, and the numbers must agree
            bundle.replace_self(nodes.container("", images[0].deepcopy(), note, classes=["explorer-still"]))


class AppendixParts(SphinxPostTransform):
    """Letter the appendices in the PDF ("Appendix A"), as the website leaves them unnumbered: LaTeX's
    ``\\appendix`` goes before the first part of _toc.yml that follows a numbered part and is not numbered
    itself (sphinx-jupyterbook-latex makes each part a ``start_of_file`` named by its caption)."""

    default_priority = 800  # after sphinx-jupyterbook-latex has built the parts (700)
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        parts = self.config.external_site_map.root.subtrees
        numbered = [index for index, part in enumerate(parts) if part.numbered]
        appendices = [part.caption for part in parts[numbered[0] + 1:] if not part.numbered] if numbered else []
        if not appendices:
            return
        for part in self.document.findall(addnodes.start_of_file):
            if part["docname"] == appendices[0]:
                part.parent.insert(part.parent.index(part), nodes.raw("", "\\appendix\n", format="latex"))
                return
        raise ValueError(f"book_pdf: no part {appendices[0]!r} in the LaTeX tree")


class BibliographyChapter(SphinxPostTransform):
    """Drop the chapter that a page holding a ``{bibliography}`` becomes in the PDF once LaTeX's builder has
    moved every citation to the book's end (a title over an empty page): the bibliography there has its own
    heading and table-of-contents line. The chapter's labels move to the bibliography, so references to the
    page still resolve."""

    default_priority = 800  # after the LaTeX builder gathered the citations (750)
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        pages = {key.docname for key in self.env.get_domain("cite").bibliographies}
        bibliographies = list(self.document.findall(thebibliography))
        for section in list(self.document.findall(nodes.section)):
            if bibliographies and section.get("docname") in pages and section.astext().strip() == section[0].astext():
                docname = section["docname"]
                labels = "".join(f"\\label{{\\detokenize{{{docname}:{name}}}}}" for name in section["ids"])
                bibliography = bibliographies[0]
                bibliography.parent.insert(bibliography.parent.index(bibliography),
                                           nodes.raw("", f"\\phantomsection{labels}\n", format="latex"))
                section.parent.remove(section)


def number_like_the_site(app: Sphinx) -> None:
    """Number theorems by chapter in the PDF, as the website does.

    One setting, ``numfig_secnum_depth``, serves twice: Sphinx numbers theorems with it while reading
    (``Theorem 4.1`` at depth 1), and the LaTeX writer turns it into the level at which LaTeX restarts its
    figure and equation counters. With the book's parts on top, sphinx-jupyterbook-latex sets depth 2 so that
    LaTeX restarts per chapter (``Fig. 4.1``, ``(4.1)``), which also makes Sphinx number theorems per
    section (``Theorem 4.2.1``). So the reading sees depth 1 and the writing gets back depth 2.
    """
    if isinstance(app.builder, LaTeXBuilder):
        app.builder.latex_numfig_secnum_depth = app.config.numfig_secnum_depth
        app.config.numfig_secnum_depth = 1


def restore_latex_counter_depth(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Give the LaTeX writer back the depth sphinx-jupyterbook-latex chose (see :func:`number_like_the_site`):
    after Sphinx numbered the theorems and saved its environment (with depth 1, as the HTML build has it, so
    that switching builders does not re-read every page), and before the writer reads it."""
    if isinstance(app.builder, LaTeXBuilder):
        app.config.numfig_secnum_depth = app.builder.latex_numfig_secnum_depth


def built_pdf(app: Sphinx) -> Path | None:
    name = Path(app.config.latex_documents[0][1]).with_suffix(".pdf").name
    pdf = Path(app.outdir).parent / "latex" / name
    return pdf if pdf.is_file() else None


class pdf_edition(nodes.General, nodes.Element):  # noqa: N801 (docutils names nodes in lower case)
    """Where the website links to the PDF edition."""


class PdfEdition(SphinxDirective):
    def run(self) -> list[nodes.Node]:
        return [pdf_edition()]


def visit_pdf_edition_html(self, node: pdf_edition) -> None:
    pdf = built_pdf(self.builder.app)
    if pdf is not None:
        href = relative_uri(self.builder.get_target_uri(self.builder.current_docname), pdf.name)
        size = pdf.stat().st_size / 1e6
        self.body.append(
            f'<p class="pdf-edition"><strong>On paper or offline</strong>, read the '
            f'<a class="reference download" href="{href}" download>whole book as one PDF</a> '
            f"({size:.1f} MB); its explorers appear as pictures, with links back here.</p>\n")
    raise nodes.SkipNode


def skip(self, node: nodes.Node) -> None:
    raise nodes.SkipNode


def copy_pdf_into_site(app: Sphinx, exception: Exception | None) -> None:
    if exception is None and app.builder.format == "html" and (pdf := built_pdf(app)) is not None:
        shutil.copy2(pdf, Path(app.outdir) / pdf.name)


def setup(app: Sphinx) -> dict:
    app.add_post_transform(ExplorerStills)
    app.add_post_transform(AppendixParts)
    app.add_post_transform(BibliographyChapter)
    app.connect("builder-inited", number_like_the_site, priority=900)  # after sphinx-jupyterbook-latex
    app.connect("doctree-resolved", restore_latex_counter_depth)
    app.add_node(pdf_edition, html=(visit_pdf_edition_html, None), latex=(skip, None))  # the book's two builders
    app.add_directive("pdf-edition", PdfEdition)
    app.connect("build-finished", copy_pdf_into_site)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
