"""The figures of chapter 3, *A ladder of frequencies*

The frequency ladder, the sinusoidal table, and the four terms of a score once positions are added.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from .style import QUERY, heatmap


def frequency_ladder(theta: np.ndarray):
    """The ladder :math:`\\theta_j` on a log scale, read off in radians per position (left axis) and in
    positions per full turn, :math:`2\\pi/\\theta_j` (right axis)."""
    fig, ax = plt.subplots(figsize=(7.0, 2.8), constrained_layout=True)
    ax.semilogy(np.arange(len(theta)), theta, "o", color=QUERY, markersize=4)
    ax.set_xlabel("pair j")
    ax.set_ylabel(r"$\theta_j$ (radians per position)")
    wavelength = ax.secondary_yaxis("right", functions=(_per_turn, _per_turn))  # its own inverse
    wavelength.set_ylabel(r"wavelength $2\pi/\theta_j$ (positions)")
    ax.spines["right"].set_visible(True)
    return fig


def _per_turn(x):
    """:math:`2\\pi/x`: radians per position to positions per turn and back (matplotlib also passes 0)."""
    with np.errstate(divide="ignore"):
        return 2 * np.pi / np.asarray(x, dtype=np.float64)


def sinusoidal_heatmap(table: np.ndarray):
    """The sinusoidal table as an image: one row per position, one column per dimension."""
    fig, ax = plt.subplots(figsize=(7.0, 3.6), constrained_layout=True)
    image = heatmap(ax, table, limit=1.0)
    ax.set_xlabel("dimension i (pair j = dimensions 2j, 2j+1)")
    ax.set_ylabel("position p")
    fig.colorbar(image, ax=ax, fraction=0.04, pad=0.02, label="PE[p, i]")
    return fig


def score_terms(terms: dict[str, np.ndarray], deviations: dict[str, float], columns: int = 3):
    """Small heatmaps of score matrices, ``columns`` to a row, each titled with its largest deviation from
    constant diagonals, :math:`\\max |S_{m,n} - S_{m+1,n+1}|`; every panel has its own colour scale,
    centred on zero."""
    rows = -(-len(terms) // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(7.0, 2.6 * rows), squeeze=False, constrained_layout=True)
    for ax, (name, values) in zip(axes.flat, terms.items(), strict=False):
        heatmap(ax, values, title=f"{name}\ndiagonals vary by {deviations[name]:.2g}")
        ax.set_xticks([])
        ax.set_yticks([])
        ax.set_xlabel("key position n")
        ax.set_ylabel("query position m")
    for ax in list(axes.flat)[len(terms):]:
        ax.set_visible(False)
    return fig
