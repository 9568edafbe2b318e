"""A list of Python floats, one hand at a time from theta_j * scale ** (-2j/(d-2))."""

import numpy as np


def ntk_frequencies(d, base, scale):
    return np.array([base ** (-2 * j / d) * scale ** (-2 * j / (d - 2)) for j in range(d // 2)])
