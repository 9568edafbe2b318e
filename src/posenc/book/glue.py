"""Glue: how a chapter hands a computed value to its prose, the same way in the book build, Jupyter,
Colab and Binder.

:func:`glue` stores a value for the prose (myst-nb's ``{glue:text}`` role and ``{glue:figure}``
directive). It writes the same output that ``myst_nb.glue`` writes -- the value's display data under
the ``application/papermill.record/`` prefix, tagged with the ``scrapbook`` metadata myst-nb looks for --
without importing myst-nb, which loads Sphinx and costs seconds in every chapter, and which Colab
does not have.
"""

from __future__ import annotations

from IPython.core.formatters import format_display_data
from IPython.display import display as ipython_display

GLUE_PREFIX = "application/papermill.record/"


def glue(name: str, value, display: bool = False) -> None:
    """Make ``value`` available to the prose as ``{glue:text}`name```; show it too when ``display``."""
    bundle, metadata = format_display_data(value)
    prefix = "" if display else GLUE_PREFIX
    metadata["scrapbook"] = {"name": name, "mime_prefix": prefix}
    ipython_display({prefix + mime: data for mime, data in bundle.items()}, raw=True, metadata=metadata)


SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def scientific(value: float, digits: int = 2) -> str:
    """``value`` as a sentence writes it: ``scientific(8.1e8)`` is ``"8.1 × 10⁸"`` (``digits`` significant)."""
    mantissa, exponent = f"{value:.{digits - 1}e}".split("e")
    return f"{mantissa} × 10{str(int(exponent)).translate(SUPERSCRIPTS)}"
