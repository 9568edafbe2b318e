"""Off by one: the key is turned by two positions, so the weight goes to the token two back."""

import numpy as np


def design_lookback(d, base):
    theta = base ** (-np.arange(0, d, 2) / d)
    q, k = np.zeros(d), np.zeros(d)
    q[0::2] = 10.0
    k[0::2], k[1::2] = 10.0 * np.cos(2 * theta), 10.0 * np.sin(2 * theta)
    return q, k
