"""Glue: how a chapter hands a computed value to its prose, the same way in the book build, Jupyter,
Colab and Binder, and the formats the prose reads numbers in (a range over seeds, a table of them).

:func:`glue` stores a value for the prose (myst-nb's ``{glue:text}`` role and ``{glue:figure}``
directive). It writes the same output that ``myst_nb.glue`` writes -- the value's display data under
the ``application/papermill.record/`` prefix, tagged with the ``scrapbook`` metadata myst-nb looks for --
without importing myst-nb, which loads Sphinx and costs seconds in every chapter, and which Colab
does not have.
"""

from __future__ import annotations

import numpy as np
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


def percent_range(values) -> str:
    """The smallest and largest of ``values`` (fractions) in whole percent joined by an en dash, ``"63–86%"``,
    or one number, ``"100%"``, when both round to it.

    >>> percent_range([0.634, 0.86, 0.7]), percent_range([0.998, 1.0])
    ('63–86%', '100%')
    """
    low, high = (f"{100 * v:.0f}" for v in (np.min(values), np.max(values)))
    return f"{high}%" if low == high else f"{low}\N{EN DASH}{high}%"


def times_l0(lengths, train_length: int) -> list[str]:
    """Each of ``lengths`` as a multiple of the training length for a table's header: ``"$L_0$"``, ``"$2L_0$"``."""
    return [f"${n // train_length}L_0$" if n > train_length else "$L_0$" for n in lengths]


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    """A Markdown table of ``rows`` under ``header``."""
    return "\n".join("| " + " | ".join(row) + " |" for row in [header, ["---"] * len(header), *rows])
