"""The figures of chapter 10, *The family*: T5's buckets, ALiBi's heads and xPos's factors."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from .style import MUTED, PALETTE


def t5_buckets(offsets: np.ndarray, buckets: dict[str, np.ndarray], max_distance: int):
    """T5's bucket against the offset n - m, one step line per configuration in ``buckets``, with dotted
    lines where the distance reaches ``max_distance`` on either side."""
    fig, ax = plt.subplots(figsize=(7.0, 3.0), constrained_layout=True)
    for (label, values), colour in zip(buckets.items(), PALETTE, strict=False):
        ax.step(offsets, values, where="mid", linewidth=1.4, color=colour, label=label)
    for edge in (-max_distance, max_distance):
        ax.axvline(edge, color=MUTED, linestyle=":", linewidth=0.9)
    ax.set_xlabel("offset n - m (key minus query)")
    ax.set_ylabel("bucket")
    ax.legend(loc="center right", fontsize=8.5)
    return fig


def alibi_heads(bias: np.ndarray, slopes: np.ndarray, heads):
    """Causal ALiBi biases of a few heads side by side (the masked upper triangle left blank)."""
    fig, axes = plt.subplots(1, len(heads), figsize=(7.2, 2.5), constrained_layout=True)
    causal = np.tril(np.ones(bias.shape[1:], dtype=bool))
    limit = float(np.max(np.abs(bias[list(heads)])))
    for ax, h in zip(axes, heads, strict=True):
        image = ax.imshow(np.where(causal, bias[h], np.nan), cmap="Blues_r", vmin=-limit, vmax=0,
                          interpolation="nearest")
        ax.set_title(f"head {h + 1}: slope {slopes[h]:g}")
        ax.set_xlabel("key n")
        ax.spines[["left", "bottom"]].set_visible(False)
    axes[0].set_ylabel("query m")
    fig.colorbar(image, ax=axes, fraction=0.04, pad=0.02, label="bias")
    return fig


def xpos_factors(distances: np.ndarray, factors: np.ndarray, hands):
    """xPos's factor on the score of pair j, zeta_j^(distance/kappa), against the distance m - n of the key
    behind the query, for the pairs ``hands`` (rows of ``factors``; log y)."""
    fig, ax = plt.subplots(figsize=(7.0, 3.0), constrained_layout=True)
    for j, colour in zip(hands, PALETTE, strict=False):
        ax.semilogy(distances, factors[j], linewidth=1.4, color=colour, label=f"pair j = {j}")
    ax.set_xlabel("distance m - n (positions the key lies behind the query)")
    ax.set_ylabel(r"factor $\zeta_j^{(m-n)/\kappa}$")
    ax.legend(loc="lower left", fontsize=8.5)
    return fig
