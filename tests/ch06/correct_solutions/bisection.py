"""The shortest q and k that reach 90% by the book's own weights (posenc.scores.last_query_weights), found by
bisection: right at the boundary, where another way of computing the weights rounds below 0.9."""

import numpy as np

from posenc.scores import last_query_weights


def design_lookback(d, base):
    theta = base ** (-np.arange(0, d, 2) / d)
    q, k = np.zeros(d), np.zeros(d)
    q[0::2], k[0::2], k[1::2] = 1.0, np.cos(3 * theta), np.sin(3 * theta)
    low, high = 0.0, 64.0
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (low, middle) if last_query_weights(middle * q, middle * k, 32, base=base)[28] >= 0.9 else (
            middle, high)
    return high * q, high * k
