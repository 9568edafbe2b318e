"""the hands turn clockwise. Hint: each 2x2 block should turn (1, 0) toward (0, 1)."""

import numpy as np


def clock_shift(k, d, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d)
    c, s = np.cos(k * theta), np.sin(k * theta)
    out = np.zeros((d, d))
    even, odd = np.arange(0, d, 2), np.arange(1, d, 2)
    out[even, even], out[even, odd], out[odd, even], out[odd, odd] = c, s, -s, c
    return out
