"""The right direction on every pair, but pairs of length 3: the peak at offset -3 is right and too flat at the
top, so its neighbours -2 and -4 take much of the weight."""

import numpy as np


def design_lookback(d, base):
    theta = base ** (-np.arange(0, d, 2) / d)
    q, k = np.zeros(d), np.zeros(d)
    q[0::2] = 3.0
    k[0::2], k[1::2] = 3.0 * np.cos(3 * theta), 3.0 * np.sin(3 * theta)
    return q, k
