"""A 0-d array, from the dot product of two table rows."""

import numpy as np


def offset_similarity(k, d, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d)
    a = np.stack([np.sin(0 * theta), np.cos(0 * theta)], axis=-1).ravel()
    b = np.stack([np.sin(k * theta), np.cos(k * theta)], axis=-1).ravel()
    return np.array(a @ b)
