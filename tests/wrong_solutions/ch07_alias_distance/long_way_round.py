"""Reduced modulo 2 pi but not measured the short way round."""

import numpy as np


def alias_distance(theta, k):
    return float(np.mod(k * theta, 2 * np.pi))
