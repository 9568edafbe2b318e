"""float32 arithmetic, a numpy float32 returned as it is."""

import numpy as np


def alias_distance(theta, k):
    turned = np.float32(k) * np.float32(theta) % np.float32(2 * np.pi)
    return min(turned, np.float32(2 * np.pi) - turned)
