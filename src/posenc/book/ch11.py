"""The settings and figures of chapter 11, *RoPE in current models*

The published configurations the chapter computes with (Llama 4, Gemma 3, Qwen-VL's
M-RoPE, DeepSeek-V3), and its figures: LongRoPE's factors, the arcs hands
sweep within a window, and which hands each axis of M-RoPE owns.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from .style import MUTED, PALETTE

# The settings the chapter computes with, each compared with transformers' defaults in tests/test_ch11.py.
LLAMA4 = {"n_layers": 48, "nope_every": 4, "chunk": 8192, "attn_scale": 0.1,
          "floor_scale": 8192}  # transformers' Llama4TextConfig defaults
GEMMA3 = {"d": 256, "window": 1024, "local_base": 10000.0, "global_base": 1000000.0, "factor": 8.0, "every": 6,
          "context": 131072,  # Gemma 3 12B's published configuration (the 4B's and 27B's window is 1024 too)
          "small_window": 512}  # sliding_window in Gemma 3 270M's and 1B's config.json
QWEN_VL_MROPE = {"d": 128, "base": 5000000.0,  # Qwen3-VL-8B's config.json (transformers' class default: 500,000)
                 "splits": {"sections": (16, 24, 24), "interleaved": (24, 20, 20)}}  # Qwen2-VL's, Qwen3-VL's
DEEPSEEK_V3 = {"heads": 128, "d_nope": 128, "d_rope": 64, "d_lat": 512, "d_value": 128}  # DeepseekV3Config defaults

AXIS_NAMES = ("time", "height", "width")


def longrope_factors(factors: dict[str, np.ndarray], factor: float):
    """Rescale factor s_j against the hand j, one line per ladder in ``factors`` (log y), with a dotted line at
    the length ratio ``factor``."""
    fig, ax = plt.subplots(figsize=(7.0, 3.0), constrained_layout=True)
    for (label, values), colour in zip(factors.items(), PALETTE, strict=False):
        ax.semilogy(np.arange(len(values)), values, marker=".", linewidth=1.2, color=colour, label=label)
    ax.axhline(factor, color=MUTED, linestyle=":", linewidth=0.9)
    ax.set_xlabel("hand j (fast to slow)")
    ax.set_ylabel(r"factor $s_j$ ($\theta'_j = \theta_j/s_j$)")
    ax.legend(loc="upper left", fontsize=8.5)
    return fig


def window_sweeps(sweeps: dict[str, np.ndarray]):
    """The angle each hand sweeps across a window, (L_win - 1) theta_j, against the hand j (log y), one line per
    configuration in ``sweeps``, with a dotted line at one full turn."""
    fig, ax = plt.subplots(figsize=(7.0, 3.0), constrained_layout=True)
    for (label, values), colour in zip(sweeps.items(), PALETTE, strict=False):
        ax.semilogy(np.arange(len(values)), values, linewidth=1.4, color=colour, label=label)
    ax.axhline(2 * np.pi, color=MUTED, linestyle=":", linewidth=0.9)
    ax.set_xlabel("hand j (fast to slow)")
    ax.set_ylabel("angle swept (radians)")
    ax.legend(loc="lower left", fontsize=8.5)
    return fig


def mrope_axes(axes: dict[str, np.ndarray], wavelengths: np.ndarray):
    """One row of dots per way of splitting the hands among M-RoPE's axes: each hand at its wavelength (log x),
    coloured by the axis that turns it."""
    fig, ax = plt.subplots(figsize=(7.0, 2.4), constrained_layout=True)
    for row, owners in enumerate(axes.values()):
        for axis, colour in zip(range(3), PALETTE, strict=False):
            mine = owners == axis
            ax.scatter(wavelengths[mine], np.full(mine.sum(), row), s=14, color=colour,
                       label=AXIS_NAMES[axis] if row == 0 else None)
    ax.set_xscale("log")
    ax.set_yticks(range(len(axes)), list(axes))
    ax.set_ylim(-0.6, len(axes) - 0.4)
    ax.invert_yaxis()
    ax.set_xlabel("wavelength of the hand (positions)")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.35), ncol=3, fontsize=8.5)
    return fig
