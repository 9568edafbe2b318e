"""Sphinx extension: the site serves every script, style and font its pages load; nothing comes from a CDN.

MathJax, require.js, the Jupyter widget manager (``@jupyter-widgets/html-manager``) and anywidget are copied
at build time from the npm packages that ``package-lock.json`` pins (``npm ci``, which ``make book`` runs)
into ``_build/html/_static/vendor/NAME@VERSION/``, the same layout as the npm CDNs. They are copied into the
*built* site rather than kept in the source ``_static/``: Jupyter Book 1 adds every ``.js`` file under the
source ``_static/`` to every page as a script.

``_config.yml`` points ``mathjax_path`` at the copy of MathJax, and ``nb_ipywidgets_js`` at
``vendor/widgets.js``, the explorers' loader (``_ext/site_static/widgets.js``), written here with the
vendored module paths filled in. A build whose configuration names a vendored file that was not copied
(say ``mathjax@3.2.2`` after an upgrade to 3.2.3) fails with an error that names the file.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

ROOT = Path(__file__).resolve().parent.parent
NODE_MODULES = ROOT / "node_modules"
LOADER = Path(__file__).resolve().parent / "site_static" / "widgets.js"
VENDOR = "vendor"  # under the built site's _static/


@dataclass(frozen=True)
class Vendored:
    """An npm package, and the files of it (glob patterns relative to the package) that the site serves."""

    name: str
    patterns: tuple[str, ...]

    def version(self, node_modules: Path) -> str:
        manifest = node_modules / self.name / "package.json"
        if not manifest.is_file():
            raise ExtensionError(
                f"site_assets: the npm package {self.name} is missing from {node_modules}; run `npm ci` in the "
                "book's folder (`make book` does it) so that the site can serve it instead of a CDN")
        return json.loads(manifest.read_text(encoding="utf-8"))["version"]

    def folder(self, node_modules: Path) -> str:
        """Its folder under ``_static/vendor/``: ``NAME@VERSION``."""
        return f"{self.name}@{self.version(node_modules)}"

    def files(self, node_modules: Path) -> list[Path]:
        package = node_modules / self.name
        return sorted({path for pattern in self.patterns for path in package.glob(pattern) if path.is_file()})


MATHJAX = Vendored("mathjax", ("es5/**/*", "LICENSE"))  # tex-chtml.js loads its fonts and extensions nearby
REQUIREJS = Vendored("requirejs", ("require.js", "README.md"))
HTML_MANAGER = Vendored(  # the AMD bundles and the icon fonts their CSS asks for; no source maps
    "@jupyter-widgets/html-manager",
    ("dist/*.js", "dist/*.woff2", "dist/*.woff", "dist/*.ttf", "dist/*.eot", "dist/*.svg", "dist/*.LICENSE.txt"),
)
ANYWIDGET = Vendored("anywidget", ("dist/index.js", "LICENSE*"))
PACKAGES = (MATHJAX, REQUIREJS, HTML_MANAGER, ANYWIDGET)


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


def copy_vendored(static: Path, node_modules: Path = NODE_MODULES) -> Path:
    """Copy every vendored package into ``static/vendor/NAME@VERSION/`` and write ``widgets.js``; return the folder."""
    vendor = static / VENDOR
    for package in PACKAGES:
        source, target = node_modules / package.name, vendor / package.folder(node_modules)
        files = package.files(node_modules)
        if not files:
            raise ExtensionError(f"site_assets: no files of {package.name} match {package.patterns} in {source}")
        for path in files:
            destination = target / path.relative_to(source)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, destination)
    loader = LOADER.read_text(encoding="utf-8").replace("__VENDOR_PATHS__", json.dumps(loader_paths(node_modules)))
    (vendor / "widgets.js").write_text(loader, encoding="utf-8")
    return vendor


def configured_vendor_files(app: Sphinx) -> list[str]:
    """The files under ``_static/vendor/`` that the configuration tells pages to load."""
    named = [app.config.mathjax_path, *getattr(app.config, "nb_ipywidgets_js", {})]
    return [name for name in named if name and name.startswith(f"{VENDOR}/")]


def vendor_assets(app: Sphinx, exception: Exception | None) -> None:
    """After an HTML build, put the vendored files into the site and check that the configuration finds them."""
    if exception is not None or app.builder.format != "html":
        return
    static = Path(app.outdir) / "_static"
    copy_vendored(static)
    missing = [name for name in configured_vendor_files(app) if not (static / name).is_file()]
    if missing:
        raise ExtensionError(f"site_assets: the configuration loads {missing} from _static/, but no such file was "
                             f"copied from {NODE_MODULES} (check the versions in _config.yml against package.json)")


def setup(app: Sphinx) -> dict:
    app.connect("build-finished", vendor_assets)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
