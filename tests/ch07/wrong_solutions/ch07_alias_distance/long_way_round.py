"""the angle is not measured the short way round. Hint: the distance is at most π."""

import numpy as np


def alias_distance(theta, k):
    return float(np.mod(k * theta, 2 * np.pi))
