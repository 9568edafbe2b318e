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
    hand makes over the training context, :math:`r_j = L_0/\\lambda_j` (log scale, fast hands on the right)."""
    fig, ax = plt.subplots(figsize=(7.0, 3.0), constrained_layout=True)
    for (name, ratio), colour in zip(ratios.items(), PALETTE, strict=False):
        ax.semilogx(turns, ratio, marker="o", markersize=2.5, linewidth=1.2, color=colour, label=name)
    ax.axvline(1.0, color=MUTED, linestyle=":", linewidth=0.9)
    ax.set_yscale("log", base=2)
    ax.set_ylim(0.8 / factor, 1.25)
    ax.set_xlabel(r"turns over the training context, $r_j = L_0/\lambda_j$")
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
    ax.set_xlabel("relative distance r (positions)")
    ax.set_ylabel(r"mean over $j$ of $|S_j(r)|$")
    ax.legend(loc="upper right", fontsize=8.5)
    return fig


def extrapolation_curves(lengths, accuracy: dict[str, np.ndarray], order_blind: np.ndarray, chance: float,
                         train_length: int):
    """Accuracy of every method (``accuracy`` maps a name to one value per length) against the evaluation
    length (log scale), with the order-blind guess (dashed), chance (dotted) and the training length."""
    fig, ax = plt.subplots(figsize=(7.0, 3.3), constrained_layout=True)
    colours = [*PALETTE, "#17becf", "#e377c2"]
    markers = "osD^v<>p"
    for (name, values), colour, marker in zip(accuracy.items(), colours, markers, strict=False):
        ax.plot(lengths, 100 * np.asarray(values), marker=marker, markersize=4.5, linewidth=1.3, color=colour,
                label=name)
    ax.plot(lengths, 100 * np.asarray(order_blind), color=INK, linestyle="--", linewidth=0.9,
            label="best order-blind guess")
    ax.axhline(100 * chance, color=MUTED, linestyle=":", linewidth=0.9, label="chance")
    ax.axvline(train_length, color=MUTED, linewidth=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xticks(list(lengths), [str(n) for n in lengths])
    ax.set_ylim(0, 105)
    ax.set_xlabel("evaluation length (tokens, log scale; grey line: training length)")
    ax.set_ylabel("tokens copied correctly (%)")
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8.5)
    return fig
