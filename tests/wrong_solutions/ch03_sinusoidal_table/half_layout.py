"""All the sines first, then all the cosines: the wrong pair layout."""

import numpy as np


def sinusoidal_table(n, d, base=10000.0):
    angles = np.outer(np.arange(n), base ** (-np.arange(0, d, 2) / d))
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=1)
