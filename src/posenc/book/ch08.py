"""The figures of chapter 8, *Serving RoPE*

Errors of angles held in low precision.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from .style import PALETTE


def angle_errors(positions: np.ndarray, errors: dict[str, np.ndarray]):
    """Largest error of :math:`\\cos(m\\theta_j)` over the hands and over all positions up to :math:`m`,
    against :math:`m`, one curve per precision (log scales; errors below 1e-10 drawn at the bottom)."""
    fig, ax = plt.subplots(figsize=(7.0, 3.0), constrained_layout=True)
    floor = 1e-10
    for (name, error), colour in zip(errors.items(), PALETTE, strict=False):
        worst_so_far = np.maximum.accumulate(np.maximum(error, floor))
        ax.loglog(positions, worst_so_far, linewidth=1.4, color=colour, label=name)
    ax.set_ylim(floor, 10)
    ax.set_xlabel("position m")
    ax.set_ylabel(r"largest error of $\cos(m\theta_j)$ so far")
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8.5)
    return fig
