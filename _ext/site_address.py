"""Sphinx extension: the published site's address, for the PDF's and the plain edition's links back to the site and
for sphinxext-opengraph's page addresses (``ogp_site_url``; with the book's title as ``ogp_site_name``).
"""

from __future__ import annotations

import re

from sphinx.application import Sphinx
from sphinx.config import Config

GITHUB_REPOSITORY = re.compile(r"https://github\.com/(?P<owner>[^/]+)/(?P<name>[^/]+?)(?:\.git)?/?")


def site_url(config: Config) -> str:
    """The published website's address, ending in ``/``: ``html_baseurl`` when set (``html.baseurl`` in
    _config.yml), else the GitHub Pages address of the repository, ``https://OWNER.github.io/NAME/``."""
    if config.html_baseurl:
        return config.html_baseurl.rstrip("/") + "/"
    repository = config.html_theme_options.get("repository_url", "")
    match = GITHUB_REPOSITORY.fullmatch(repository)
    if not match:
        raise ValueError(f"site_address: set html.baseurl in _config.yml; cannot derive the site from {repository!r}")
    return f"https://{match['owner'].lower()}.github.io/{match['name']}/"


def set_opengraph_address(app: Sphinx, config: Config) -> None:
    if not config.ogp_site_url:
        config.ogp_site_url = site_url(config)
    if config.ogp_site_name is None:
        config.ogp_site_name = config.html_title


def setup(app: Sphinx) -> dict:
    app.setup_extension("sphinxext.opengraph")
    app.connect("config-inited", set_opengraph_address)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
