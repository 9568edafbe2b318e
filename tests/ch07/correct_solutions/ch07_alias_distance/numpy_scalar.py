"""np.minimum of the two ways round, a numpy scalar."""

import numpy as np


def alias_distance(theta, k):
    turned = np.mod(k * theta, 2 * np.pi)
    return np.minimum(turned, 2 * np.pi - turned)
