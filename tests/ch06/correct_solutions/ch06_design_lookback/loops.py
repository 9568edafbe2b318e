"""Plain Python loops and lists, one pair at a time, returned as numpy arrays."""

import math

import numpy as np


def design_lookback(d, base):
    q, k = [], []
    for j in range(d // 2):
        angle = 3 * base ** (-2 * j / d)
        q += [12.0, 0.0]
        k += [12.0 * math.cos(angle), 12.0 * math.sin(angle)]
    return np.array(q), np.array(k)
