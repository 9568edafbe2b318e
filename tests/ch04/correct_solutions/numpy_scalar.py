"""Returns the numpy scalar of a dot product."""

import numpy as np


def rope_score(q, k, m, n, theta):
    def turn(a):
        return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return np.dot(turn(m * theta) @ q, turn(n * theta) @ k) / np.sqrt(2)
