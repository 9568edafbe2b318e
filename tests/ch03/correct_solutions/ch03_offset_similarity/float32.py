"""A float32 sum of cosines."""

import numpy as np


def offset_similarity(k, d, base=10000.0):
    theta = (base ** (-np.arange(0, d, 2) / d)).astype(np.float32)
    return np.cos(np.float32(k) * theta).sum(dtype=np.float32)
