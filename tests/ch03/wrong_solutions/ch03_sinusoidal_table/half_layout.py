"""the pairs are laid out as halves (all the sines, then all the cosines). Hint: interleave them."""

import numpy as np


def sinusoidal_table(n, d, base=10000.0):
    angles = np.outer(np.arange(n), base ** (-np.arange(0, d, 2) / d))
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=1)
