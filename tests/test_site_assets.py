"""The site's vendored npm files and its math typeset at build time (_ext/site_assets.py), on small inputs."""

from __future__ import annotations

import pytest
import site_assets
from sphinx.errors import ExtensionError


def test_a_missing_npm_package_fails_the_build_with_a_clear_message(tmp_path):
    """What the site serves instead of a CDN is copied from node_modules (the browser tests check that every page
    finds it there); without `npm ci` the build stops and says so."""
    with pytest.raises(ExtensionError, match=r"mathjax is missing .*`npm ci`"):
        site_assets.copy_vendored(tmp_path / "_static", tmp_path / "node_modules")


def test_the_tex_of_every_math_element_is_typeset_and_nothing_else():
    body = ('<p>Text \\(not math\\) <span class="math notranslate nohighlight">\\(a &lt; b\\)</span></p>\n'
            '<div class="math notranslate nohighlight" id="equation-x">\n<span class="eqno">(1.1)</span>'
            '\\[\\begin{split}x &amp; = 1\\end{split}\\]</div>')
    typeset = site_assets.typeset_body(body, lambda tex, display: f"[{'D' if display else 'I'}:{tex}]")
    assert typeset == ('<p>Text \\(not math\\) <span class="math notranslate nohighlight">[I:a < b]</span></p>\n'
                       '<div class="math notranslate nohighlight" id="equation-x">\n<span class="eqno">(1.1)</span>'
                       '[D:\\begin{split}x & = 1\\end{split}]</div>')


@pytest.mark.skipif(not (site_assets.NODE_MODULES / "mathjax" / "package.json").is_file(), reason="needs `npm ci`")
def test_mathjax_typesets_tex_and_refuses_broken_tex():
    typesetter = site_assets.Typesetter()
    try:
        inline = typesetter.typeset("x^2", display=False)
        assert inline.startswith('<mjx-container class="MathJax" jax="CHTML"') and "<msup><mi>x</mi>" in inline
        assert 'display="true"' in typesetter.typeset(r"\sum_j \theta_j", display=True)
        with pytest.raises(ValueError, match="Missing close brace"):
            typesetter.typeset(r"\frac{1}{", display=False)
        css = typesetter.stylesheet()
        assert "mjx-c1D465" in css and "woff-v2/MathJax_Main-Regular.woff" in css  # x, and the fonts it needs
    finally:
        typesetter.close()
