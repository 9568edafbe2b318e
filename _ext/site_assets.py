"""Sphinx extension: the site serves every script, style and font its pages load; nothing comes from a CDN.

**Math is typeset when the site is built.** MathJax 3 (the pinned npm package, run by node) turns each page's
TeX into CHTML (``_ext/site_static/typeset.cjs``), with MathML beside it for screen readers; the pages carry
the result and one stylesheet, ``_static/vendor/mathjax-chtml.css``, whose fonts are MathJax's own, served from
``_static/vendor/mathjax@VERSION/``. A reader's browser runs no MathJax: no 1.2 MB script to fetch and run on
a phone before the formulas appear. A TeX error fails the build, naming the page and the formula.

**Vendored scripts.** Require.js, the Jupyter widget manager (``@jupyter-widgets/html-manager``) and anywidget
are copied at build time from the npm packages that ``package-lock.json`` pins (``npm ci``, which ``make book``
runs) into ``_build/html/_static/vendor/NAME@VERSION/``, the same layout as the npm CDNs. They are copied into the
*built* site rather than kept in the source ``_static/``: Jupyter Book 1 adds every ``.js`` file under the
source ``_static/`` to every page as a script.

``_config.yml`` points ``nb_ipywidgets_js`` at ``vendor/widgets.js``, the explorers' loader
(``_ext/site_static/widgets.js``), written here with the vendored module paths filled in.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.builders.html._assets import _CascadingStyleSheet
from sphinx.errors import ExtensionError

ROOT = Path(__file__).resolve().parent.parent
NODE_MODULES = ROOT / "node_modules"
LOADER = Path(__file__).resolve().parent / "site_static" / "widgets.js"
TYPESET = Path(__file__).resolve().parent / "site_static" / "typeset.cjs"
VENDOR = "vendor"  # under the built site's _static/


@dataclass(frozen=True)
class Vendored:
    """An npm package, and the files of it (glob patterns relative to the package) that the site serves."""

    name: str
    patterns: tuple[str, ...]

    def folder(self, node_modules: Path) -> str:
        """Its folder under ``_static/vendor/``: ``NAME@VERSION``, as installed in ``node_modules``."""
        manifest = node_modules / self.name / "package.json"
        if not manifest.is_file():
            raise ExtensionError(
                f"site_assets: the npm package {self.name} is missing from {node_modules}; run `npm ci` in the "
                "book's folder (`make book` does it) so that the site can serve it instead of a CDN")
        return f"{self.name}@{json.loads(manifest.read_text(encoding='utf-8'))['version']}"


MATHJAX = Vendored("mathjax", ("es5/output/chtml/fonts/woff-v2/*.woff", "LICENSE"))  # the fonts of CHTML math
REQUIREJS = Vendored("requirejs", ("require.js", "README.md"))
HTML_MANAGER = Vendored(  # the AMD bundles and the icon fonts their CSS asks for; no source maps
    "@jupyter-widgets/html-manager",
    ("dist/*.js", "dist/*.woff2", "dist/*.woff", "dist/*.ttf", "dist/*.eot", "dist/*.svg", "dist/*.LICENSE.txt"),
)
ANYWIDGET = Vendored("anywidget", ("dist/index.js", "LICENSE*"))
WIDGET_PACKAGES = (REQUIREJS, HTML_MANAGER, ANYWIDGET)
PACKAGES = (MATHJAX, *WIDGET_PACKAGES)


def loader_paths(node_modules: Path) -> dict:
    """What ``widgets.js`` loads, as paths under ``_static/vendor/`` (modules without ``.js``, as AMD names them)."""
    manager = f"{HTML_MANAGER.folder(node_modules)}/dist"
    return {
        "requirejs": f"{REQUIREJS.folder(node_modules)}/require.js",
        "manager": f"{manager}/embed-amd.js",
        "modules": {
            "@jupyter-widgets/html-manager": f"{manager}/embed-amd",
            "@jupyter-widgets/html-manager/dist": manager,  # its fonts and chunks are found relative to this
            "anywidget": f"{ANYWIDGET.folder(node_modules)}/dist/index",  # pinned: no guess at ./anywidget.js
        },
    }


def copy_vendored(static: Path, node_modules: Path = NODE_MODULES, packages: tuple = PACKAGES) -> Path:
    """Copy ``packages`` into ``static/vendor/NAME@VERSION/`` (and write ``widgets.js`` when they include the
    widget manager); return the folder."""
    vendor = static / VENDOR
    for package in packages:
        source, target = node_modules / package.name, vendor / package.folder(node_modules)
        files = sorted({path for pattern in package.patterns for path in source.glob(pattern) if path.is_file()})
        if not files:
            raise ExtensionError(f"site_assets: no files of {package.name} match {package.patterns} in {source}")
        for path in files:
            destination = target / path.relative_to(source)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, destination)
    if HTML_MANAGER in packages:
        paths = json.dumps(loader_paths(node_modules))
        (vendor / "widgets.js").write_text(LOADER.read_text(encoding="utf-8").replace("__VENDOR_PATHS__", paths),
                                           encoding="utf-8")
    return vendor


MATH_ELEMENT = re.compile(r'(<(span|div) class="math[ "][^>]*>)(.*?)(</\2>)', re.DOTALL)
TEX = re.compile(r"\\\((.*?)\\\)|\\\[(.*?)\\\]", re.DOTALL)  # \(inline\) or \[display\]
MATH_CSS = "mathjax-chtml.css"  # under _static/vendor/


class Typesetter:
    """A node process running MathJax 3 (``typeset.cjs``): TeX in, CHTML out; the CSS for all of it at the end."""

    def __init__(self, node_modules: Path = NODE_MODULES):
        fonts = f"{MATHJAX.folder(node_modules)}/es5/output/chtml/fonts/woff-v2"  # relative to the stylesheet
        if shutil.which("node") is None:
            raise ExtensionError("site_assets: typesetting the math needs node (Node.js); `make book` installs it")
        self.process = subprocess.Popen(["node", str(TYPESET), str(node_modules / "mathjax"), fonts], text=True,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.cache: dict[tuple[str, bool], str] = {}

    def ask(self, request: dict) -> dict:
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise ExtensionError(f"site_assets: the MathJax process ended (exit {self.process.poll()})")
        return json.loads(line)

    def typeset(self, tex: str, display: bool) -> str:
        """The CHTML of ``tex``; ValueError with MathJax's message for TeX it cannot typeset."""
        if (tex, display) not in self.cache:
            answer = self.ask({"tex": tex, "display": display})
            if "error" in answer:
                raise ValueError(f"MathJax cannot typeset {tex!r}: {answer['error']}")
            self.cache[tex, display] = answer["html"]
        return self.cache[tex, display]

    def stylesheet(self) -> str:
        return self.ask({"stylesheet": True})["css"]

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=30)


def typeset_body(body: str, typeset) -> str:
    """``body`` with the TeX of every ``class="math"`` element replaced by ``typeset(tex, display)``."""

    def one(match: re.Match) -> str:
        tex = match.group(1) if match.group(1) is not None else match.group(2)
        return typeset(html.unescape(tex).strip(), match.group(2) is not None)

    return MATH_ELEMENT.sub(lambda m: m.group(1) + TEX.sub(one, m.group(3)) + m.group(4), body)


def typeset_page(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Typeset the page's math and leave MathJax's scripts (installed by sphinx.ext.mathjax) off the page."""
    if app.builder.format != "html" or "body" not in context:
        return
    if not app.env.get_domain("math").has_equations(pagename):  # as sphinx.ext.mathjax decides
        return
    if not hasattr(app.builder, "typesetter"):
        app.builder.typesetter = Typesetter()
    try:
        context["body"] = typeset_body(context["body"], app.builder.typesetter.typeset)
    except ValueError as error:
        raise ExtensionError(f"site_assets: {pagename}: {error}") from None
    mathjax = app.config.mathjax_path if "://" in app.config.mathjax_path else f"_static/{app.config.mathjax_path}"
    context["script_files"] = [
        script for script in context.get("script_files", [])
        if str(getattr(script, "filename", script)) != mathjax
        and not str(getattr(script, "attributes", {}).get("body", "")).startswith("window.MathJax")
    ]
    # Earlier handlers may have replaced the context's list, so the stylesheet goes straight into it.
    context["css_files"] = [*context.get("css_files", []), _CascadingStyleSheet(f"_static/{VENDOR}/{MATH_CSS}")]


def note_widget_pages(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Remember whether any page loads the widget loader (then the widget manager must be copied)."""
    if any(str(getattr(script, "filename", "")).endswith(f"{VENDOR}/widgets.js")
           for script in context.get("script_files", [])):
        app.builder.widgets = True


def vendor_assets(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    static = Path(app.outdir) / "_static"
    typesetter = getattr(app.builder, "typesetter", None)
    widgets = getattr(app.builder, "widgets", False)
    packages = ((MATHJAX,) if typesetter else ()) + (WIDGET_PACKAGES if widgets else ())
    vendor = copy_vendored(static, packages=packages)  # a book with no math and no widget needs no npm
    if typesetter is not None:
        (vendor / MATH_CSS).write_text(typesetter.stylesheet(), encoding="utf-8")
        typesetter.close()


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", typeset_page, priority=900)  # after sphinx.ext.mathjax adds its scripts
    app.connect("html-page-context", note_widget_pages, priority=900)
    app.connect("build-finished", vendor_assets)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": False}
