"""The figures of chapter 7, *A clock with many hands*

Clock faces and the clock's separation over offsets.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from .style import INK, KEY, MUTED, QUERY


def clock_faces(n_positions: int, thetas, titles, highlight=()):
    """Positions ``0..n_positions-1`` placed on the circle at their angles :math:`m\\theta \\bmod 2\\pi`, one
    panel per hand; labels move outward by one ring per completed turn so that laps stay readable.
    Positions in ``highlight`` are drawn in the key colour."""
    fig, axes = plt.subplots(1, len(thetas), figsize=(3.5 * len(thetas), 3.7), constrained_layout=True,
                             subplot_kw={"projection": "polar"})
    positions = np.arange(n_positions)
    for ax, theta, title in zip(np.atleast_1d(axes), thetas, titles, strict=True):
        angles = positions * theta
        laps = np.floor(angles / (2 * np.pi))
        colors = [KEY if p in highlight else QUERY for p in positions]
        ax.scatter(angles, np.ones_like(angles), c=colors, s=22, zorder=3)
        ax.plot(np.linspace(0, 2 * np.pi, 200), np.ones(200), color=MUTED, lw=0.6)
        for p, a, lap in zip(positions, angles, laps, strict=True):
            ax.annotate(str(p), xy=(a, 1.22 + 0.22 * lap), ha="center", va="center", fontsize=7.5,
                        color=KEY if p in highlight else INK)
        ax.set_ylim(0, 1.4 + 0.22 * laps.max())
        ax.set_yticks([])
        ax.grid(color=MUTED, lw=0.3)
        ax.set_xticks(np.radians([0, 90, 180, 270]), ["0", "π/2", "π", "3π/2"])
        ax.spines["polar"].set_visible(False)
        ax.set_title(title, pad=16)
    return fig


def clock_separation(offsets, one_hand, whole_clock):
    """Distance between the readings of two positions ``offsets`` apart: one fast hand alone, against the
    whole clock, on a logarithmic offset axis."""
    fig, ax = plt.subplots(figsize=(7.0, 3.0), constrained_layout=True)
    ax.semilogx(offsets, one_hand, color=MUTED, lw=0.6, label="fast hand alone, θ = 1")
    ax.semilogx(offsets, whole_clock, color=QUERY, lw=0.8, label="whole clock, d = 64")
    best = int(np.argmin(whole_clock))
    ax.plot(offsets[best], whole_clock[best], "o", color=KEY, ms=5, label="closest pair, whole clock")
    ax.set_xlabel("offset Δ between two positions (positions, log scale)")
    ax.set_ylabel("clock distance (radians)")
    ax.legend(loc="upper left", fontsize=8.5, ncols=3)
    return fig
