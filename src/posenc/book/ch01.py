"""The figures of chapter 1, *Attention sees a set*

Two attention outputs side by side, the rows of one a permutation of the other's.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from .style import heatmap


def permuted_outputs(out_a: np.ndarray, tokens_a, out_b: np.ndarray, tokens_b, *, title_a: str, title_b: str):
    """Two attention outputs side by side, one row per token: the figure of chapter 1.

    When attention cannot see order, the rows of the two panels are the same vectors in another order.
    """
    fig, axes = plt.subplots(1, 2, figsize=(7.2, 2.6), sharex=True, constrained_layout=True)
    limit = float(max(np.abs(out_a).max(), np.abs(out_b).max()))
    for ax, out, tokens, title in ((axes[0], out_a, tokens_a, title_a), (axes[1], out_b, tokens_b, title_b)):
        image = heatmap(ax, out, row_labels=tokens, title=title, limit=limit)
        ax.set_xlabel("output coordinate")
    fig.colorbar(image, ax=axes, fraction=0.04, pad=0.02, label="value")
    return fig
