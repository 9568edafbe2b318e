"""Distances without wrap-around: neighbours always look closest."""

import numpy as np


def closest_alias(theta, n_positions):
    k = np.arange(1, n_positions)
    return int(k[np.argmin(np.abs(k * theta))])
