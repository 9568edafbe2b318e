"""The base divided instead of raised: theta_j = 2j / (d * base)."""

import numpy as np


def frequencies(d, base=10000.0):
    return 1.0 / (1.0 + np.arange(0, d, 2) * base / d)
