"""its pairs are the dimensions (j, j + d/2). Hint: the clock's pairs are (2j, 2j+1)."""

import numpy as np


def clock_shift(k, d, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d)
    c, s = np.cos(k * theta), np.sin(k * theta)
    h = d // 2
    out = np.zeros((d, d))
    first, second = np.arange(h), np.arange(h, d)
    out[first, first], out[first, second], out[second, first], out[second, second] = c, -s, s, c
    return out
