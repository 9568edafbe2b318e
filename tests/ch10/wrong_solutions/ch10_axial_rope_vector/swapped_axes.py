"""the row and the column are swapped. Hint: the first half of x turns by the row, the second by the column."""

import numpy as np


def axial_rope_vector(x, row, col, base=10000.0):
    half = len(x) // 2
    theta = base ** (-np.arange(0, half, 2) / half)
    out = np.array(x, dtype=float)
    for start, position in ((0, col), (half, row)):
        a, b = out[start:start + half:2].copy(), out[start + 1:start + half:2].copy()
        cos, sin = np.cos(position * theta), np.sin(position * theta)
        out[start:start + half:2], out[start + 1:start + half:2] = a * cos - b * sin, a * sin + b * cos
    return out
