"""The icon fonts hold the icons the site shows and nothing else (_ext/icon_fonts.py)."""

from __future__ import annotations

from fontTools.ttLib import TTFont
from icon_fonts import icon_characters, icon_fonts

CSS = """@font-face{font-display:block;font-family:Font Awesome\\ 6 Free;font-weight:900;
src:url(../vendor/fa/fa-solid-900.woff2) format("woff2"),url(../vendor/fa/fa-solid-900.ttf?v=1) format("truetype")}
@font-face{font-family:"MathJax_Main";src:url(../vendor/mj/MathJax_Main.woff) format("woff")}
.fa-rocket:before{content:"\\f135"}.fa-search:before{content:'\\f002'}.x{content:"a"}
.toc:after{content:"\\f107";font-family:Font Awesome\\ 6 Free}mjx-c::before{content:"\\E152"}
:root{--pst-icon-bell:"\\f0f3";--pst-icon-admonition-default:var(--pst-icon-bell);--pst-icon-unused:"\\f188"}
.proof .admonition-title:after{content:var(--pst-icon-admonition-default);font:var(--fa-font-solid)}"""


def test_the_icon_faces_fonts_and_characters_are_read_from_the_stylesheet():
    assert icon_fonts(CSS, "_static/bundles") == {"_static/vendor/fa/fa-solid-900.woff2",
                                                  "_static/vendor/fa/fa-solid-900.ttf"}
    assert icon_characters(CSS) == {0xF135, 0xF002, 0xF107, 0xF0F3}  # not MathJax's E152, nor an unused variable


def test_the_sites_icon_fonts_hold_every_icon_its_stylesheets_name_and_little_else(site):
    """The subsets the build made: still WOFF2, with every icon the stylesheets name (the theorem titles' bell
    among them), and a few kB in all."""
    bundles = sorted((site / "_static" / "bundles").glob("*.css"))
    css = "\n".join(bundle.read_text(encoding="utf-8") for bundle in bundles)
    fonts = [site / path for path in icon_fonts(css, "_static/bundles") if path.endswith(".woff2")]
    assert len(fonts) == 3, fonts  # solid, regular, brands
    icons = icon_characters(css)
    assert {TTFont(font).flavor for font in fonts} == {"woff2"}  # cut in place, in their own format
    shown = set().union(*(TTFont(font).getBestCmap() for font in fonts))
    assert icons <= shown, sorted(hex(c) for c in icons - shown)
    assert 0xF0F3 in shown  # the bell that the theme puts in every theorem's title
    assert sum(font.stat().st_size for font in fonts) < 20_000
