"""The book's one figure style: fonts, colours, axes without chart junk, and the figures more than one chapter
draws (the heatmap, curves of similarity against position, accuracy against evaluation length).

Every figure of the book is drawn in this style, so the chapters look alike.
"""

from __future__ import annotations

import matplotlib as mpl
import matplotlib.pyplot as plt
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


def extrapolation_ranges(lengths, accuracy: dict[str, dict[str, np.ndarray]], chance: dict[str, float],
                         order_blind: np.ndarray | None, train_length: int, stretched=()):
    """One panel per task of ``accuracy`` (task -> method -> array ``(seeds, len(lengths))``): every method's
    median over the seeds (a line) and its range (a bar from the smallest to the largest), against the
    evaluation length (log scale); chance (dotted) on each panel, the order-blind guess ``order_blind``
    (``(seeds, len(lengths))``, dashed; optional) on the first, the training length (grey). The methods named in
    ``stretched`` are drawn dashed."""
    fig, axes = plt.subplots(1, len(accuracy), figsize=(7.6, 3.4), sharey=True, constrained_layout=True)
    colours, markers = [*PALETTE, "#17becf", "#e377c2", "#bcbd22"], "osD^v<>ph"
    for panel, (ax, (task, methods)) in enumerate(zip(axes, accuracy.items(), strict=True)):
        for index, ((name, values), colour, marker) in enumerate(zip(methods.items(), colours, markers, strict=False)):
            values = 100 * np.asarray(values)
            x = np.asarray(lengths) * 2.0 ** (0.035 * (index - len(methods) / 2))  # side by side, not on top
            median = np.median(values, axis=0)
            ax.errorbar(x, median, yerr=[median - values.min(axis=0), values.max(axis=0) - median], color=colour,
                        marker=marker, markersize=4, linewidth=1.2, capsize=2,
                        linestyle="--" if name in stretched else "-", label=name)
        if panel == 0 and order_blind is not None:
            ax.plot(lengths, 100 * np.median(order_blind, axis=0), color=INK, linestyle=(0, (4, 2)), linewidth=0.9,
                    label="best order-blind guess")
        ax.axhline(100 * chance[task], color=MUTED, linestyle=":", linewidth=0.9, label=None if panel else "chance")
        ax.axvline(train_length, color=MUTED, linewidth=0.8)
        ax.set_xscale("log", base=2)
        ax.set_xticks(list(lengths), [str(n) for n in lengths])
        ax.minorticks_off()
        ax.set_ylim(0, 105)
        ax.set_title(task)
        ax.set_xlabel("evaluation length (tokens)")
    axes[0].set_ylabel("tokens copied correctly (%)")
    handles, labels = axes[0].get_legend_handles_labels()
    order = sorted(range(len(labels)), key=lambda i: labels[i] in ("best order-blind guess", "chance"))  # methods first
    fig.legend([handles[i] for i in order], [labels[i] for i in order], loc="outside lower center", ncol=4, fontsize=8)
    return fig
