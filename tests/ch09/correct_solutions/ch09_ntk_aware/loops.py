"""A list of Python floats, one hand at a time from theta_j * factor ** (-2j/(d-2)); d = 2 refused first."""

import numpy as np


def ntk_aware(d, factor, base=10000.0):
    if d == 2:
        raise ValueError("ntk_aware: d must be at least 4")
    return np.array([base ** (-2 * j / d) * factor ** (-2 * j / (d - 2)) for j in range(d // 2)])
