"""float32 with stack and reshape, as in many tutorials."""

import numpy as np


def sinusoidal_table(n, d, base=10000.0):
    angles = np.arange(n, dtype=np.float32)[:, None] * (base ** (-np.arange(0, d, 2) / d)).astype(np.float32)
    return np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(n, d)
