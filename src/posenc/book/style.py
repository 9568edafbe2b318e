"""The book's one figure style: fonts, colours, axes without chart junk, and the heatmap every chapter draws.

Every figure of the book is made by a function of its chapter's module (``posenc.book.ch01`` ... ``ch11``) in this
style, so the chapters stay short and look alike.
"""

from __future__ import annotations

import matplotlib as mpl
import numpy as np

INK = "#222222"
QUERY, KEY, MUTED = "#1f77b4", "#d62728", "#9a9a9a"
PALETTE = [QUERY, KEY, "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]

STYLE = {
    "figure.dpi": 110,
    "savefig.dpi": 110,
    "figure.figsize": (7.0, 3.2),
    "font.size": 10,
    "axes.titlesize": 10.5,
    "axes.labelsize": 10,
    "axes.edgecolor": INK,
    "axes.labelcolor": INK,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": mpl.cycler(color=PALETTE),
    "xtick.color": INK,
    "ytick.color": INK,
    "legend.frameon": False,
    "image.cmap": "RdBu_r",
}


def use_book_style() -> None:
    """Apply the book's matplotlib style (idempotent); every chapter calls it once."""
    mpl.rcParams.update(STYLE)


def heatmap(ax, values: np.ndarray, *, row_labels=None, title: str = "", limit: float | None = None):
    """Draw ``values`` on ``ax`` as a diverging heatmap centred on zero, from ``-limit`` to ``limit`` (default: the
    largest magnitude in ``values``), and return the image (for a colorbar)."""
    values = np.asarray(values)
    limit = limit or float(np.max(np.abs(values))) or 1.0
    image = ax.imshow(values, aspect="auto", interpolation="nearest", vmin=-limit, vmax=limit, cmap="RdBu_r")
    if row_labels is not None:
        ax.set_yticks(range(len(row_labels)), row_labels)
    ax.set_title(title)
    ax.spines[["left", "bottom"]].set_visible(False)
    return image
