"""The key is turned backward by three positions: the scores peak at offset +3, a token the query never sees."""

import numpy as np


def design_lookback(d, base):
    theta = base ** (-np.arange(0, d, 2) / d)
    q, k = np.zeros(d), np.zeros(d)
    q[0::2] = 10.0
    k[0::2], k[1::2] = 10.0 * np.cos(3 * theta), -10.0 * np.sin(3 * theta)
    return q, k
