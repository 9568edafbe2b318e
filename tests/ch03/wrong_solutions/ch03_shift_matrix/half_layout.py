"""its blocks act on dimensions (j, j + d/2). Hint: the pairs of the table are (2j, 2j+1)."""

import numpy as np


def shift_matrix(k, d, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d)
    c, s = np.cos(k * theta), np.sin(k * theta)
    h = d // 2
    m = np.zeros((d, d))
    first, second = np.arange(h), np.arange(h, d)
    m[first, first], m[first, second], m[second, first], m[second, second] = c, s, -s, c
    return m
