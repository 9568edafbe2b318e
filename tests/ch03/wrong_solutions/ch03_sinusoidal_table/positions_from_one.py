"""the positions are off by one. Hint: the first row is position 0."""

import numpy as np


def sinusoidal_table(n, d, base=10000.0):
    angles = np.outer(np.arange(1, n + 1), base ** (-np.arange(0, d, 2) / d))
    table = np.empty((n, d))
    table[:, 0::2], table[:, 1::2] = np.sin(angles), np.cos(angles)
    return table
