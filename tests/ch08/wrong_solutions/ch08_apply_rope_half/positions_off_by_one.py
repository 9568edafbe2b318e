"""the positions are off by one. Hint: use the positions exactly as given."""

import numpy as np


def apply_rope_half(x, positions, base=10000.0):
    d = x.shape[-1]
    angles = np.outer(np.asarray(positions) + 1, base ** (-np.arange(0, d, 2) / d))
    c, s = np.cos(angles), np.sin(angles)
    a, b = x[:, : d // 2], x[:, d // 2 :]
    return np.concatenate([a * c - b * s, a * s + b * c], axis=1)
