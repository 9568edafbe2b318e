"""Sphinx extension: the icon fonts hold only the icons the site shows.

The theme draws its icons (menu, search, rocket, the GitHub mark, ...) with Font Awesome's web fonts, and the
fonts hold every icon Font Awesome has: 156 kB for the solid set and 118 kB for the brands, fetched by every
page at the first paint, for about twenty glyphs. On a phone's connection that is more than a second before
the first words appear. After the stylesheets are written (``_ext/css_bundle.py``, which already leaves out
the rules of icons the site never uses), every ``content: "\\fXXX"`` of a Font Awesome rule that a
bundle still holds names an icon the site may show; each font that an ``@font-face`` of a bundle points to is
cut down to those characters, in place, in the same format (WOFF2 needs the ``brotli`` package).
"""

from __future__ import annotations

import io
import posixpath
import re
from pathlib import Path

from css_bundle import BUNDLES
from fontTools import subset
from fontTools.ttLib import TTFont
from sphinx.application import Sphinx

FONT_FACE = re.compile(r"@font-face\s*{([^}]*)}")
FONT_URL = re.compile(r"""url\(\s*['"]?([^'")?#]+\.(?:woff2|woff|ttf))""")
RULE = re.compile(r"([^{}]+){([^{}]*)}")
ESCAPE = re.compile(r"""content\s*:\s*['"]\\([0-9a-fA-F]{4,6})\s*['"]""")
ICON_SELECTOR = re.compile(r"\.fa-")  # Font Awesome's icon classes (MathJax's own glyphs use mjx- rules)
ICON_FAMILY = re.compile(r"font-family\s*:\s*['\"]?Font Awesome", re.IGNORECASE)
ICON_FONT = re.compile(r"font\s*:\s*var\(--fa-font-")  # the theme's rules set the icon font through a variable
PROPERTY = re.compile(r"(--[\w-]+)\s*:\s*([^;{}]+)")
CONTENT_VARIABLE = re.compile(r"content\s*:\s*var\((--[\w-]+)\)")


def icon_fonts(css: str, css_dir: str) -> set[str]:
    """The site paths of the font files that the Font Awesome ``@font-face`` rules of ``css`` point to."""
    return {posixpath.normpath(posixpath.join(css_dir, url))
            for face in FONT_FACE.findall(css) if ICON_FAMILY.search(face) for url in FONT_URL.findall(face)}


def icon_characters(css: str) -> set[int]:
    """The characters that Font Awesome's rules in ``css`` insert: rules of its icon classes (``.fa-...``), or that
    set its font themselves (the theme's ``.onthispage:after``, ``font: var(--fa-font-solid)``), with a
    ``content`` that is an escape (``"\\f135"``) or a custom property holding one, followed through any chain
    of ``var(...)`` (the theme's theorem titles: ``--pst-icon-admonition-default: var(--pst-icon-bell)``)."""
    properties = dict(PROPERTY.findall(css))
    characters = set()
    for selector, body in RULE.findall(css):
        if ICON_SELECTOR.search(selector) or ICON_FAMILY.search(body) or ICON_FONT.search(body):
            characters |= {int(code, 16) for code in ESCAPE.findall(body)}
            for name in CONTENT_VARIABLE.findall(body):
                characters |= property_characters(name, properties)
    return characters


def property_characters(name: str, properties: dict[str, str]) -> set[int]:
    """The icon characters of the custom property ``name``: its quoted value, literal or escaped, or the
    characters of the property it names with ``var(...)``."""
    value = properties.get(name, "").strip()
    for _ in range(len(properties)):  # a chain of var(...) is at most as long as there are properties
        if not value.startswith("var("):
            break
        value = properties.get(value[4:].split(")")[0].strip(), "").strip()
    if value[:1] not in "\"'" or len(value) < 3:
        return set()
    text = re.sub(r"\\([0-9a-fA-F]{1,6})\s?", lambda m: chr(int(m.group(1), 16)), value[1:-1])
    return {ord(c) for c in text if 0xE000 <= ord(c) <= 0xF8FF}  # Font Awesome's icons sit in the private use area


def subset_font(path: Path, characters: set[int]) -> None:
    """Cut the font at ``path`` down to ``characters``, in place and in its own format (its ``flavor``, kept)."""
    font = TTFont(path)
    subsetter = subset.Subsetter(subset.Options(layout_features=["*"], notdef_outline=True))
    subsetter.populate(unicodes=characters)
    subsetter.subset(font)
    buffer = io.BytesIO()  # the font still reads its tables from the file at path
    font.save(buffer)
    path.write_bytes(buffer.getvalue())


def subset_icon_fonts(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    site = Path(app.outdir)
    fonts, characters = set(), set()
    for bundle in sorted((site / BUNDLES).glob("*.css")):
        css = bundle.read_text(encoding="utf-8")
        fonts |= icon_fonts(css, BUNDLES)
        characters |= icon_characters(css)
    for font in sorted(fonts):
        if (site / font).is_file():
            subset_font(site / font, characters)


def setup(app: Sphinx) -> dict:
    app.connect("build-finished", subset_icon_fonts, priority=950)  # after css_bundle writes the bundles
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": False}
