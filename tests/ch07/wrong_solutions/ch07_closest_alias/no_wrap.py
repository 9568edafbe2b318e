"""it returned 1. Hint: neighbours are not always closest on a fast hand; measure the angle modulo a full turn."""

import numpy as np


def closest_alias(theta, n_positions):
    k = np.arange(1, n_positions)
    return int(k[np.argmin(np.abs(k * theta))])
