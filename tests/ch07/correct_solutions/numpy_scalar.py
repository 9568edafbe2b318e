"""numpy scalars returned as they are: np.minimum of the two ways round, the np.int64 of argmin + 1, np.ceil's
float64."""

import numpy as np


def alias_distance(theta, k):
    turned = np.mod(k * theta, 2 * np.pi)
    return np.minimum(turned, 2 * np.pi - turned)


def closest_alias(theta, n_positions):
    k = np.arange(1, n_positions)
    turned = np.mod(k * theta, 2 * np.pi)
    return np.argmin(np.minimum(turned, 2 * np.pi - turned)) + 1


def slowest_hand_span(d, base=10000.0):
    return np.ceil(2 * np.pi * base ** ((d - 2) / d))
