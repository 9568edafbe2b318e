"""The figures of chapter 6, *The score matrix is Toeplitz*, and the matrix of a convolution layer

Score matrices and their diagonals, one hand's sinusoid, the weights over offsets, a fitted profile.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from .style import KEY, MUTED, QUERY, heatmap


def convolution_matrix(w, n: int, padding: str = "zeros") -> np.ndarray:
    """The n x n matrix of a convolution layer (one channel, an odd number of weights ``w``, as many outputs as
    inputs): column c is the layer's output for the signal that is 1 at c. Like ``torch.nn.Conv1d`` it
    cross-correlates, and past the ends it reads zeros (``"zeros"``) or the other end (``"circular"``)."""
    mode = {"zeros": "constant", "circular": "wrap"}[padding]  # numpy.pad's name for the padding
    units = [np.pad(unit, len(w) // 2, mode=mode) for unit in np.eye(n)]
    return np.stack([np.correlate(unit, w, mode="valid") for unit in units], axis=1)


def toeplitz_scores(scores: np.ndarray):
    """Left: the score matrix as a heatmap (query position down, key position across). Right: every entry
    plotted against its offset :math:`n - m`; a Toeplitz matrix puts all entries of an offset on one point."""
    scores = np.asarray(scores)
    fig, (left, right) = plt.subplots(1, 2, figsize=(7.4, 3.2), constrained_layout=True,
                                      gridspec_kw={"width_ratios": [1, 1.25]})
    image = heatmap(left, scores, title="score matrix S")
    left.set_xlabel("key position n")
    left.set_ylabel("query position m")
    fig.colorbar(image, ax=left, fraction=0.046, pad=0.03)
    m, n = np.indices(scores.shape)
    right.scatter((n - m).ravel(), scores.ravel(), s=8, color=QUERY, alpha=0.5)
    right.axhline(0, color=MUTED, lw=0.5)
    right.set_xlabel("offset n − m (positions)")
    right.set_ylabel("score")
    right.set_title("every entry against its offset")
    return fig


def offset_sinusoid(offsets, scores, curve_offsets, curve, period: float):
    """One hand's score at whole offsets (dots) on its sinusoid (line), with the period marked."""
    fig, ax = plt.subplots(figsize=(7.0, 2.8), constrained_layout=True)
    ax.plot(curve_offsets, curve, color=MUTED, lw=1)
    ax.plot(offsets, scores, "o", color=QUERY, ms=4)
    for start in np.arange(0, curve_offsets[-1], period):
        ax.axvline(start, color=KEY, lw=0.6, ls=":")
    ax.axhline(0, color=MUTED, lw=0.5)
    ax.set_xlabel("offset Δ = n − m (positions)")
    ax.set_ylabel("score s(Δ)")
    return fig


def offset_weights(offsets, weights: dict[str, np.ndarray], *, mark: int | None = None):
    """Softmax weights of the last query against each offset, one panel (a bar per offset) per choice of
    ``(q, k)``; the offset ``mark`` is drawn in the key colour."""
    fig, axes = plt.subplots(1, len(weights), figsize=(3.0 * len(weights), 2.8), sharey=True,
                             constrained_layout=True)
    for ax, (title, values) in zip(np.atleast_1d(axes), weights.items(), strict=True):
        colors = [KEY if o == mark else QUERY for o in offsets]
        ax.bar(offsets, values, color=colors, width=0.8)
        ax.set_title(title)
        ax.set_xlabel("offset Δ = n − m")
    np.atleast_1d(axes)[0].set_ylabel("weight α_Δ")
    return fig


def fitted_profile(offsets, target, curve_offsets, curve, reached):
    """A target score profile at whole offsets (dots), its least-squares trigonometric polynomial drawn
    between them (line) and the scores of the head that reaches it (crosses)."""
    fig, ax = plt.subplots(figsize=(7.0, 2.8), constrained_layout=True)
    ax.plot(offsets, target, "o", color=MUTED, ms=5, label="target")
    ax.plot(curve_offsets, curve, color=QUERY, lw=1.2, label="least-squares fit")
    ax.plot(offsets, reached, "x", color=KEY, ms=5, label="scores of the head")
    ax.axhline(0, color=MUTED, lw=0.5)
    ax.set_xlabel("offset Δ = n − m (positions)")
    ax.set_ylabel("score s(Δ)")
    ax.legend(loc="upper left")
    return fig
