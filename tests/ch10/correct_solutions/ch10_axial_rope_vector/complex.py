"""Each half viewed as d/4 complex numbers and multiplied by e^{i p theta_j}."""

import numpy as np


def axial_rope_vector(x, row, col, base=10000.0):
    x = np.asarray(x, dtype=float)
    half = len(x) // 2
    theta = base ** (-np.arange(0, half, 2) / half)
    parts = []
    for piece, position in ((x[:half], row), (x[half:], col)):
        z = (piece[0::2] + 1j * piece[1::2]) * np.exp(1j * position * theta)
        parts.append(np.stack([z.real, z.imag], axis=-1).ravel())
    return np.concatenate(parts)
