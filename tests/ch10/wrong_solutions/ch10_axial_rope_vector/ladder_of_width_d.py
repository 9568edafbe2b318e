"""each half uses the ladder of the whole head. Hint: each half is a RoPE of width d/2: θ_j = base ** (-2j/(d/2))."""

import numpy as np


def axial_rope_vector(x, row, col, base=10000.0):
    d, half = len(x), len(x) // 2
    theta = base ** (-np.arange(0, half, 2) / d)
    out = np.array(x, dtype=float)
    for start, position in ((0, row), (half, col)):
        a, b = out[start:start + half:2].copy(), out[start + 1:start + half:2].copy()
        cos, sin = np.cos(position * theta), np.sin(position * theta)
        out[start:start + half:2], out[start + 1:start + half:2] = a * cos - b * sin, a * sin + b * cos
    return out
