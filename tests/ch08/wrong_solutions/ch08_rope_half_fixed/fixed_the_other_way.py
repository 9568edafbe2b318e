"""it pairs the dimensions the interleaved way. Hint: pair j is dimensions (j, j + d/2)."""

import numpy as np


def rope_half_fixed(x, positions, base=10000.0):
    d = x.shape[-1]
    theta = base ** (-np.arange(0, d, 2) / d)
    angles = np.outer(positions, np.repeat(theta, 2))
    rotated = np.empty_like(x, dtype=float)
    rotated[:, 0::2], rotated[:, 1::2] = -x[:, 1::2], x[:, 0::2]
    return x * np.cos(angles) + rotated * np.sin(angles)
