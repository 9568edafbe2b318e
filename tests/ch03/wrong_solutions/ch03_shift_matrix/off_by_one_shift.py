"""it shifts by k + 1 positions. Hint: the angle of block j is k·θ_j."""

import numpy as np


def shift_matrix(k, d, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d)
    c, s = np.cos((k + 1) * theta), np.sin((k + 1) * theta)
    m = np.zeros((d, d))
    even, odd = np.arange(0, d, 2), np.arange(1, d, 2)
    m[even, even], m[even, odd], m[odd, even], m[odd, odd] = c, s, -s, c
    return m
