"""The figures of chapter 4, *Rotation, not addition*

A query and a key turned in the plane, and a score along a common shift.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from posenc.geometry import plane_angle, rotation_2d

from .style import INK, KEY, MUTED, QUERY


def _arrow(ax, vector, color, *, label=None, style="-", width=1.8):
    """An arrow from the origin to ``vector``, with an optional label just beyond its tip."""
    ax.annotate("", xy=vector, xytext=(0, 0),
                arrowprops={"arrowstyle": "-|>", "color": color, "lw": width, "linestyle": style,
                            "shrinkA": 0, "shrinkB": 0, "mutation_scale": 12})
    if label:
        tip = np.asarray(vector, dtype=float)
        ax.annotate(label, xy=tip * 1.13, color=color, ha="center", va="center", fontsize=9)


def _plane_axes(ax, radius: float, title: str):
    circle = np.linspace(0, 2 * np.pi, 200)
    ax.plot(radius * np.cos(circle), radius * np.sin(circle), color=MUTED, lw=0.6, ls=":")
    ax.axhline(0, color=MUTED, lw=0.5)
    ax.axvline(0, color=MUTED, lw=0.5)
    ax.set_aspect("equal")
    ax.set_xlim(-1.35 * radius, 1.35 * radius)
    ax.set_ylim(-1.35 * radius, 1.35 * radius)
    ax.set_xlabel("coordinate 1")
    ax.set_ylabel("coordinate 2")
    ax.set_title(title)


def rotated_pairs(q, k, position_pairs, theta: float):
    """One panel per ``(m, n)``: the content vectors ``q`` and ``k`` (grey, dashed) and the rotated
    :math:`R_m q`, :math:`R_n k` (colour), with the arc of the angle from the rotated query to the rotated key.

    The figure of chapter 4: the rotated pairs point elsewhere in each panel, the angle between them does not.
    """
    q, k = np.asarray(q, dtype=float), np.asarray(k, dtype=float)
    radius = float(max(np.linalg.norm(q), np.linalg.norm(k)))
    fig, axes = plt.subplots(1, len(position_pairs), figsize=(3.4 * len(position_pairs), 3.6),
                             constrained_layout=True)
    for ax, (m, n) in zip(np.atleast_1d(axes), position_pairs, strict=True):
        rq, rk = rotation_2d(m * theta) @ q, rotation_2d(n * theta) @ k
        _plane_axes(ax, radius, f"query at m = {m}, key at n = {n}")
        _arrow(ax, q, MUTED, label="q", style="--", width=1.2)
        _arrow(ax, k, MUTED, label="k", style="--", width=1.2)
        _arrow(ax, rq, QUERY, label=f"$R_{{{m}}}q$")
        _arrow(ax, rk, KEY, label=f"$R_{{{n}}}k$")
        start, turn = np.arctan2(rq[1], rq[0]), plane_angle(rq, rk)
        arc = start + np.linspace(0, turn, 60)
        ax.plot(0.35 * radius * np.cos(arc), 0.35 * radius * np.sin(arc), color=INK, lw=1)
        middle = start + turn / 2
        ax.annotate(f"{np.degrees(turn):.0f}°", xy=(0.55 * radius * np.cos(middle), 0.55 * radius * np.sin(middle)),
                    ha="center", va="center", fontsize=9, color=INK)
    return fig


def score_along_shift(shifts, rope_scores, additive_scores):
    """The score of one query-key pair as both slide along the sequence by ``shifts``: RoPE against
    sinusoidal vectors added to the content."""
    fig, ax = plt.subplots(figsize=(7.0, 2.8), constrained_layout=True)
    ax.plot(shifts, additive_scores, color=MUTED, lw=1.2,
            label="added sinusoidal vectors: $(q + \\mathrm{PE}(m+k))^\\top(k + \\mathrm{PE}(n+k))/\\sqrt{d}$")
    ax.plot(shifts, rope_scores, color=QUERY, lw=2, label="RoPE: $(\\Theta_{m+k}q)^\\top(\\Theta_{n+k}k)/\\sqrt{d}$")
    ax.set_xlabel("shift k applied to both positions (positions)")
    ax.set_ylabel("score")
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncols=2, fontsize=8.5)
    return fig
