"""The site's vendored npm files and its math typeset at build time (_ext/site_assets.py), on small inputs."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from sphinx.errors import ExtensionError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "_ext"))

import site_assets  # noqa: E402


def fake_package(node_modules: Path, name: str, version: str, files: list[str]) -> None:
    package = node_modules / name
    package.mkdir(parents=True)
    (package / "package.json").write_text(json.dumps({"name": name, "version": version}))
    for file in files:
        (package / file).parent.mkdir(parents=True, exist_ok=True)
        (package / file).write_text(f"// {name} {file}")


@pytest.fixture
def node_modules(tmp_path) -> Path:
    modules = tmp_path / "node_modules"
    fake_package(modules, "mathjax", "3.2.2", ["es5/tex-chtml.js", "es5/output/chtml/fonts/woff-v2/a.woff", "LICENSE",
                                               "ts/not-served.ts"])
    fake_package(modules, "requirejs", "2.3.4", ["require.js", "README.md", "bin/r.js"])
    fake_package(modules, "@jupyter-widgets/html-manager", "1.0.6",
                 ["dist/embed-amd.js", "dist/embed-amd.js.map", "dist/1551f4f60c37af51121f.woff2"])
    fake_package(modules, "anywidget", "0.11.0", ["dist/index.js", "LICENSE"])
    return modules


def test_vendored_files_land_under_name_at_version_without_source_maps(node_modules, tmp_path):
    vendor = site_assets.copy_vendored(tmp_path / "_static", node_modules)
    copied = {p.relative_to(vendor).as_posix() for p in vendor.rglob("*") if p.is_file()}
    assert copied == {
        "mathjax@3.2.2/es5/output/chtml/fonts/woff-v2/a.woff",
        "mathjax@3.2.2/LICENSE", "requirejs@2.3.4/require.js", "requirejs@2.3.4/README.md",
        "@jupyter-widgets/html-manager@1.0.6/dist/embed-amd.js",
        "@jupyter-widgets/html-manager@1.0.6/dist/1551f4f60c37af51121f.woff2",
        "anywidget@0.11.0/dist/index.js", "anywidget@0.11.0/LICENSE", "widgets.js",
    }


def test_the_widget_loader_names_every_module_it_loads_by_a_vendored_path(node_modules, tmp_path):
    vendor = site_assets.copy_vendored(tmp_path / "_static", node_modules)
    loader = (vendor / "widgets.js").read_text()
    assert "__VENDOR_PATHS__" not in loader
    paths = site_assets.loader_paths(node_modules)
    assert json.dumps(paths) in loader
    for path in (paths["requirejs"], paths["manager"], *(f"{m}.js" for m in paths["modules"].values()
                                                          if not m.endswith("/dist"))):
        assert (vendor / path).is_file(), path


def test_a_missing_npm_package_fails_the_build_with_a_clear_message(node_modules, tmp_path):
    (node_modules / "anywidget" / "package.json").unlink()
    with pytest.raises(ExtensionError, match=r"anywidget is missing .*`npm ci`"):
        site_assets.copy_vendored(tmp_path / "_static", node_modules)


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
