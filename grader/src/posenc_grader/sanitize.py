"""Whatever a student wrote is made inert before a browser shows it: :class:`Sanitize`, an nbconvert preprocessor.

nbconvert renders a notebook's Markdown, raw HTML and HTML outputs as they are, so a written answer holding
``<img src=x onerror=...>`` runs script in the formgrader (in the instructor's session, which may set grades)
and in a feedback page. :class:`Sanitize` is nbconvert's own ``SanitizeHTML`` with nh3 (a maintained Rust
sanitizer) in place of bleach: raw cells and ``text/html`` outputs are cleaned, outputs of any type but text,
PNG, JPEG and LaTeX are dropped (scripts, SVG, widgets), and a Markdown cell is rendered as nbconvert renders
it (math kept as text), cleaned, and replaced by the clean HTML only when cleaning removed something, so that
every ordinary answer keeps its Markdown and math. Nothing may load from elsewhere (an image is inline data)
or hide text (no ``style``, only the classes nbconvert's own Markdown uses). ``exercises/nbgrader_config.py``
configures it for plain nbgrader as well.
"""

from __future__ import annotations

import html
import re

import nh3
from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath
from nbconvert.preprocessors.sanitize import SanitizeHTML
from pygments.token import STANDARD_TYPES
from traitlets import Bool

ATTRIBUTES = {**nh3.ALLOWED_ATTRIBUTES, "a": {"href"}, "img": {"src", "alt", "width", "height"},
              **{f"h{level}": {"id"} for level in range(1, 7)}}  # nbconvert's heading anchors
CLASSES = {"span": set(STANDARD_TYPES.values()) - {""}, "div": {"highlight"}, "a": {"anchor-link"}}  # code, anchors


def _url(tag: str, attribute: str, value: str) -> str | None:
    """An image only from inline data (no request leaves the page); a link anywhere but to a data: page."""
    if attribute == "src":
        return value if value.startswith("data:image/") else None
    return None if attribute == "href" and value.strip().lower().startswith("data:") else value


def clean(text: str) -> str:
    """``text`` as HTML with nothing left that runs, loads or hides: nh3 with the rules above (a lone surrogate,
    which nh3 cannot read, made ``?``)."""
    return nh3.clean(text.encode("utf-8", "replace").decode("utf-8"), attributes=ATTRIBUTES, allowed_classes=CLASSES,
                     attribute_filter=_url, link_rel=None, url_schemes={"http", "https", "mailto", "data"})


class _Attachments(dict):
    """A cell's attachments, where one it shows but does not hold (lost by an editor) is nothing to show, which
    :func:`clean` removes, instead of nbconvert's error."""

    def __missing__(self, name: str) -> dict:
        return {"text/plain": ""}

    def __contains__(self, name: object) -> bool:
        return True


class _TooLarge(Exception):
    pass


class _Bounded(IPythonRenderer):
    """nbconvert's renderer, stopped once its images and links have written ``limit`` characters: one attachment
    or link target shown thousands of times would fill the grader's memory before the rendering ends."""

    def __init__(self, limit: int, **options):
        super().__init__(**options)
        self.left = limit

    def _spend(self, text: str) -> str:
        self.left -= len(text)
        if self.left < 0:
            raise _TooLarge
        return text

    def image(self, *args, **options) -> str:
        return self._spend(super().image(*args, **options))

    def link(self, *args, **options) -> str:
        return self._spend(super().link(*args, **options))


GROWTH = 32  # images and links may write this many times their cell (and its attachments) before it is shown as text
MAX_TEXT = 100_000  # characters of a Markdown cell, inline images aside, rendered at all: empty headings render to
                    # 26 times their size, at about 1 GB of the grader's memory per MB
NOTEBOOK_TEXT = 4 * MAX_TEXT  # and of all the Markdown cells of a notebook together
# an image's own inline data, one line as a link target or an img's src: no Markdown hides in it, nor code
_DATA_URL = re.compile(r"""(?:(?<=\]\()|(?<=src=")|(?<=src='))data:image/[\w+.-]+;base64,[A-Za-z0-9+/=]+""")


def markdown(source: str, attachments: dict | None = None, most: int = MAX_TEXT) -> str:
    """A Markdown cell's source, kept when nbconvert's HTML exporter renders it to nothing that :func:`clean`
    removes; else the clean rendering, as one HTML block (no blank line, which would end it) that renders the
    same again; the source as text where it is longer than ``most`` characters, its images and links write more than
    :data:`GROWTH` times the cell, or it cannot be rendered (a lone surrogate, an attachment with nothing in it)."""
    bundles = attachments or {}
    limit = GROWTH * (len(source) + sum(len(str(bundle)) for bundle in bundles.values())) + 2**16
    try:
        if text_length(source) > most:
            raise _TooLarge
        rendered = MarkdownWithMath(renderer=_Bounded(limit, escape=False, attachments=_Attachments(bundles))).render(
            source)
        safe = clean(rendered)
    except Exception:  # noqa: BLE001 -- too large, or unreadable to nbconvert or nh3: the instructor still reads it
        text = html.escape(source.encode("utf-8", "replace").decode("utf-8"))
        safe = f"<p>(shown as text: too large, or not Markdown that can be shown)</p><pre>{text}</pre>"
    else:
        if html.unescape(safe) == html.unescape(rendered.replace(" />", ">")):  # the same markup, written alike
            return source
    safe = safe.strip().replace("\r\n", "\n").replace("\r", "\n")
    return "<div>\n" + re.sub(r"\n(?=[^\S\n]*\n)", "&#10;", safe) + "\n</div>"  # no blank line, nor one of spaces


def text_length(source: str) -> int:
    """The characters of a Markdown cell that rendering can multiply: all but images' own inline data."""
    return len(_DATA_URL.sub("", source))


class Sanitize(SanitizeHTML):
    """nbconvert's ``SanitizeHTML`` with nh3, Markdown kept readable, and no widget state. On by default, so that
    naming it in nbgrader's or nbconvert's list of preprocessors is enough."""

    enabled = Bool(True).tag(config=True)

    def preprocess(self, nb, resources):
        nb.metadata.pop("widgets", None)  # nbconvert would load the widget manager from a CDN to show it
        self._left = NOTEBOOK_TEXT
        return super().preprocess(nb, resources)

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "markdown":
            left, length = getattr(self, "_left", NOTEBOOK_TEXT), text_length(cell.source)
            cell.source = markdown(cell.source, cell.get("attachments"), min(MAX_TEXT, left))
            self._left = max(0, left - length)  # once spent, every later cell is shown as text
            return cell, resources
        return super().preprocess_cell(cell, resources, index)

    def sanitize_html_tags(self, html_str: str) -> str:
        return clean(html_str)
