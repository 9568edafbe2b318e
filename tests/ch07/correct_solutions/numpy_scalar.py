"""numpy scalars returned as they are: the np.int64 of argmin + 1, and np.ceil's float64 where a count is asked."""

import numpy as np


def closest_alias(theta, n_positions):
    k = np.arange(1, n_positions)
    turned = np.mod(k * theta, 2 * np.pi)
    return np.argmin(np.minimum(turned, 2 * np.pi - turned)) + 1


def slowest_hand_span(d, base=10000.0):
    return np.ceil(2 * np.pi * base ** ((d - 2) / d))
