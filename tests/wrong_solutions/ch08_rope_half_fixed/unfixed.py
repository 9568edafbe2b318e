"""The kernel handed in unchanged: angles laid out for pairs (2j, 2j+1), rotate_half pairing (j, j + d/2)."""

import numpy as np


def rope_half_fixed(x, positions, base=10000.0):
    d = x.shape[-1]
    theta = base ** (-np.arange(0, d, 2) / d)
    angles = np.outer(positions, np.repeat(theta, 2))
    rotated = np.concatenate([-x[:, d // 2:], x[:, : d // 2]], axis=1)
    return x * np.cos(angles) + rotated * np.sin(angles)
