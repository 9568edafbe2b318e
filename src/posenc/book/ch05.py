"""The figures of chapter 5, *Rotations preserve the norm*

Lengths along the positions, added and rotated.
"""

from __future__ import annotations

import matplotlib.pyplot as plt

from .style import MUTED, QUERY


def norm_along_position(positions, additive_norms, rope_norms):
    """The length of a query at each position: with a sinusoidal vector added, and rotated by RoPE."""
    fig, ax = plt.subplots(figsize=(7.0, 2.8), constrained_layout=True)
    ax.plot(positions, additive_norms, color=MUTED, lw=1.2, label="added: $\\|q + \\mathrm{PE}(m)\\|$")
    ax.plot(positions, rope_norms, color=QUERY, lw=2, label="rotated: $\\|\\Theta_m q\\|$")
    ax.set_xlabel("position m")
    ax.set_ylabel("length of the query")
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncols=2, fontsize=9)
    return fig
