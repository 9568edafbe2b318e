"""the sine and the cosine are swapped. Hint: a pair turned by φ is (x cos φ - y sin φ, x sin φ + y cos φ)."""

import numpy as np


def apply_rope_half(x, positions, base=10000.0):
    d = x.shape[-1]
    angles = np.outer(positions, base ** (-np.arange(0, d, 2) / d))
    c, s = np.cos(angles), np.sin(angles)
    a, b = x[:, : d // 2], x[:, d // 2 :]
    return np.concatenate([a * s - b * c, a * c + b * s], axis=1)
