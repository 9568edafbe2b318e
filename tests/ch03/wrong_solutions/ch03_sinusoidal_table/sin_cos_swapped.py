"""sine and cosine are swapped. Hint: column 2j holds the sine."""

import numpy as np


def sinusoidal_table(n, d, base=10000.0):
    angles = np.outer(np.arange(n), base ** (-np.arange(0, d, 2) / d))
    table = np.empty((n, d))
    table[:, 0::2], table[:, 1::2] = np.cos(angles), np.sin(angles)
    return table
