"""The same design in float32."""

import numpy as np


def design_lookback(d, base):
    theta = (base ** (-np.arange(0, d, 2) / d)).astype(np.float32)
    q = np.zeros(d, dtype=np.float32)
    k = np.zeros(d, dtype=np.float32)
    q[0::2] = 12.0
    k[0::2], k[1::2] = 12.0 * np.cos(3 * theta), 12.0 * np.sin(3 * theta)
    return q, k
