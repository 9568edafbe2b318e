"""The figures of chapter 9, *Stretching RoPE*

Wavelengths against contexts, rescaled ladders, the long-term decay, and the extrapolation experiment.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from .style import INK, MUTED, PALETTE
from .style import use_book_style as use_book_style  # the chapter's first cell calls plots.use_book_style()


def base_wavelengths(wavelengths: dict[str, np.ndarray], contexts: dict[str, int]):
    """Wavelength of every hand (positions per full turn, log scale) for each base in ``wavelengths``,
    with a dotted horizontal line at each context length in ``contexts`` (label: tokens)."""
    fig, ax = plt.subplots(figsize=(7.0, 3.0), constrained_layout=True)
    for (label, values), colour in zip(wavelengths.items(), PALETTE, strict=False):
        ax.semilogy(np.arange(len(values)), values, "o", markersize=3.5, color=colour, label=label)
    for label, length in contexts.items():
        ax.axhline(length, color=MUTED, linestyle=":", linewidth=0.9)
        ax.text(0, length * 1.15, label, color=INK, fontsize=8.5, va="bottom")
    ax.set_xlabel("hand j")
    ax.set_ylabel(r"wavelength $2\pi/\theta_j$ (positions)")
    ax.legend(loc="lower right")
    return fig


def scaled_ladders(theta: np.ndarray, ladders: dict[str, np.ndarray]):
    """One small panel per method: its ladder :math:`\\theta'_j` (colour) over the original
    :math:`\\theta_j` (grey), radians per position on a log scale against the hand index."""
    fig, axes = plt.subplots(1, len(ladders), figsize=(7.4, 2.6), sharey=True, constrained_layout=True)
    hands = np.arange(len(theta))
    for ax, (name, scaled), colour in zip(axes, ladders.items(), PALETTE, strict=False):
        ax.semilogy(hands, theta, color=MUTED, linewidth=2.2, label="original")
        ax.semilogy(hands, scaled, color=colour, linewidth=1.4, label="scaled")
        ax.set_title(name)
        ax.set_xlabel("hand j")
    axes[0].set_ylabel(r"$\theta_j$ (radians per position)")
    axes[0].legend(loc="lower left", fontsize=8)
    return fig


def scaling_ratios(turns: np.ndarray, ratios: dict[str, np.ndarray], factor: float):
    """How much each method slows each hand, :math:`\\theta'_j/\\theta_j`, against the number of turns the
    hand makes over the original context, :math:`r_j = L_0/\\lambda_j` (log scale, fast hands on the right)."""
    fig, ax = plt.subplots(figsize=(7.0, 3.0), constrained_layout=True)
    for (name, ratio), colour in zip(ratios.items(), PALETTE, strict=False):
        ax.semilogx(turns, ratio, marker="o", markersize=2.5, linewidth=1.2, color=colour, label=name)
    ax.axvline(1.0, color=MUTED, linestyle=":", linewidth=0.9)
    ax.set_yscale("log", base=2)
    ax.set_ylim(0.8 / factor, 1.25)
    ax.set_xlabel(r"turns over the original context, $r_j = L_0/\lambda_j$")
    ax.set_ylabel(r"$\theta'_j\,/\,\theta_j$")
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8.5)
    return fig


def decay_curves(distances: np.ndarray, curves: dict[str, np.ndarray], octaves: dict[str, tuple], level: float):
    """RoFormer's relative bound over the distance (thin lines, log x), the mean over each octave of
    distances (steps, ``octaves`` maps a label to ``(edges, means)``) and the random-walk level."""
    fig, ax = plt.subplots(figsize=(7.0, 3.1), constrained_layout=True)
    for (label, values), colour in zip(curves.items(), PALETTE, strict=False):
        edges, means = octaves[label]
        ax.semilogx(distances, values, linewidth=0.5, alpha=0.45, color=colour)
        ax.stairs(means, edges, baseline=None, linewidth=2.0, color=colour, label=f"{label} (octave mean)")
    ax.axhline(level, color=INK, linestyle="--", linewidth=0.9, label="random-walk level")
    ax.set_xlabel(r"distance $|\Delta|$ (positions)")
    ax.set_ylabel(r"mean over $j$ of $|S_j(\Delta)|$")
    ax.legend(loc="upper right", fontsize=8.5)
    return fig


def extrapolation_ranges(lengths, accuracy: dict[str, dict[str, np.ndarray]], chance: dict[str, float],
                         order_blind: np.ndarray, train_length: int, stretched=()):
    """One panel per task of ``accuracy`` (task -> method -> array ``(seeds, len(lengths))``): every method's
    median over the seeds (a line) and its range (a bar from the smallest to the largest), against the
    evaluation length (log scale); chance (dotted) on each panel, the order-blind guess ``order_blind``
    (``(seeds, len(lengths))``, dashed) on the first, the training length (grey). The methods named in
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
        if panel == 0:
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
