"""The figures of chapter 2, *Absolute or relative?*

How alike two positions' vectors are, and how far training moved each row of a learned table.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from .style import INK, MUTED, PALETTE, QUERY
from .style import use_book_style as use_book_style  # the chapter's first cell calls plots.use_book_style()


def similarity_curves(positions, panels: dict[str, dict[str, np.ndarray]], *, ylabel: str, marks=(),
                      xlabel: str = "position q"):
    """Side-by-side panels of curves over ``positions``: ``panels`` maps a panel title to
    ``{curve label: values}``. Dotted vertical lines at ``marks`` (e.g. the reference positions).
    Short curves get a dot at every position; long ones are plain lines."""
    fig, axes = plt.subplots(1, len(panels), figsize=(7.2, 2.7), sharey=True, squeeze=False,
                             constrained_layout=True)
    marker = "." if len(positions) <= 100 else None
    for ax, (title, curves) in zip(axes[0], panels.items(), strict=True):
        for (label, values), colour in zip(curves.items(), PALETTE, strict=False):
            ax.plot(positions, values, marker=marker, markersize=3, linewidth=1, color=colour, label=label)
        for mark in marks:
            ax.axvline(mark, color=MUTED, linestyle=":", linewidth=0.8)
        ax.set_title(title)
        ax.set_xlabel(xlabel)
    axes[0, 0].set_ylabel(ylabel)
    if any(len(curves) > 1 for curves in panels.values()):
        axes[0, -1].legend(loc="lower right", fontsize=8.5)
    return fig


def row_changes(change: np.ndarray, train_length: int, *, ylabel: str = "largest change of an entry"):
    """How far training moved each row of a learned position table, with the rows that no training
    sequence reached (``>= train_length``) shaded."""
    fig, ax = plt.subplots(figsize=(7.0, 2.6), constrained_layout=True)
    rows = np.arange(len(change))
    ax.axvspan(train_length - 0.5, len(change) - 0.5, color=MUTED, alpha=0.15, linewidth=0)
    ax.plot(rows, change, color=QUERY, linewidth=0.8)
    ax.axvline(train_length - 0.5, color=INK, linestyle=":", linewidth=0.8)
    ax.text(train_length + 8, 0.93 * float(np.max(change)), "never in a training sequence", va="top", color=INK)
    ax.set_xlim(-0.5, len(change) - 0.5)
    ax.set_xlabel("row of the table (position)")
    ax.set_ylabel(ylabel)
    return fig
