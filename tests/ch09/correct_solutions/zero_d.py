"""A 0-d array from solving the equation in logarithms: -2j/d log b' = -2j/d log b - log factor."""

import numpy as np


def base_for_hand(d, factor, hand, base=10000.0):
    if not 1 <= hand <= d // 2 - 1:
        raise ValueError("base_for_hand: only hands 1 to d/2 - 1 can be slowed by a larger base")
    return np.exp(np.asarray(np.log(base) + np.log(factor) * d / (2 * hand)))
