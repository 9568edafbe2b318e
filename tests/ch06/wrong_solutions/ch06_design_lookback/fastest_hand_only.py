"""Only the fastest pair is used: it turns almost a full circle in six positions, so offset -9 scores nearly as
high as -3 and the weight is shared."""

import numpy as np


def design_lookback(d, base):
    q, k = np.zeros(d), np.zeros(d)
    q[0] = 10.0
    k[0], k[1] = 10.0 * np.cos(3.0), 10.0 * np.sin(3.0)
    return q, k
