"""this matrix moves positions backwards (PE(p) to PE(p - k)). Hint: check the signs of the sines."""

import numpy as np


def shift_matrix(k, d, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d)
    c, s = np.cos(k * theta), np.sin(k * theta)
    m = np.zeros((d, d))
    even, odd = np.arange(0, d, 2), np.arange(1, d, 2)
    m[even, even], m[even, odd], m[odd, even], m[odd, odd] = c, -s, s, c
    return m
