"""Returns the np.int64 of argmin + 1."""

import numpy as np


def closest_alias(theta, n_positions):
    k = np.arange(1, n_positions)
    turned = np.mod(k * theta, 2 * np.pi)
    return np.argmin(np.minimum(turned, 2 * np.pi - turned)) + 1
