"""it pairs the dimensions the interleaved way. Hint: pair j is dimensions (j, j + d/2)."""

import numpy as np


def apply_rope_half(x, positions, base=10000.0):
    d = x.shape[-1]
    angles = np.outer(positions, base ** (-np.arange(0, d, 2) / d))
    c, s = np.cos(angles), np.sin(angles)
    out = np.empty_like(x, dtype=float)
    out[:, 0::2] = x[:, 0::2] * c - x[:, 1::2] * s
    out[:, 1::2] = x[:, 0::2] * s + x[:, 1::2] * c
    return out
