"""one ladder runs over the whole head: the second half gets its slow end. Hint: each half has its own ladder of
width d/2, from θ_0 = 1 down."""

import numpy as np


def axial_rope_vector(x, row, col, base=10000.0):
    d = len(x)
    theta = base ** (-np.arange(0, d, 2) / d)
    position = np.where(np.arange(d // 2) < d // 4, row, col)
    a, b = np.asarray(x, dtype=float)[0::2], np.asarray(x, dtype=float)[1::2]
    out = np.empty(d)
    out[0::2] = a * np.cos(position * theta) - b * np.sin(position * theta)
    out[1::2] = a * np.sin(position * theta) + b * np.cos(position * theta)
    return out
