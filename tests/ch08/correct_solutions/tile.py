"""The one-line fix written with np.tile: the d/2 angles repeated as two halves."""

import numpy as np


def rope_half_fixed(x, positions, base=10000.0):
    d = x.shape[-1]
    theta = base ** (-np.arange(0, d, 2) / d)
    angles = np.outer(positions, np.tile(theta, 2))
    rotated = np.concatenate([-x[:, d // 2:], x[:, : d // 2]], axis=1)
    return x * np.cos(angles) + rotated * np.sin(angles)
