"""Returns the numpy scalar of .sum() without float()."""

import numpy as np


def offset_similarity(k, d, base=10000.0):
    return np.cos(k * base ** (-np.arange(0, d, 2) / d)).sum()
