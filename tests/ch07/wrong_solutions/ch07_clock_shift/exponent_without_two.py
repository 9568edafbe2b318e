"""the ladder's exponent lacks its factor 2. Hint: θ_j = base ** (-2j/d)."""

import numpy as np


def clock_shift(k, d, base=10000.0):
    theta = base ** (-np.arange(d // 2) / d)
    c, s = np.cos(k * theta), np.sin(k * theta)
    out = np.zeros((d, d))
    even, odd = np.arange(0, d, 2), np.arange(1, d, 2)
    out[even, even], out[even, odd], out[odd, even], out[odd, odd] = c, -s, s, c
    return out
