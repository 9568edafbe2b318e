"""it pairs the dimensions the half way. Hint: pair j is dimensions (2j, 2j+1)."""

import numpy as np


def apply_rope_interleaved(x, positions, base=10000.0):
    d = x.shape[-1]
    angles = np.outer(positions, base ** (-np.arange(0, d, 2) / d))
    c, s = np.cos(angles), np.sin(angles)
    a, b = x[:, : d // 2], x[:, d // 2 :]
    return np.concatenate([a * c - b * s, a * s + b * c], axis=1)
