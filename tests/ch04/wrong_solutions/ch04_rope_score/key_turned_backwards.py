"""the key is turned backwards (by -n·θ). Hint: both vectors turn counter-clockwise."""

import numpy as np


def rope_score(q, k, m, n, theta):
    def turn(a):
        return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])

    return float((turn(m * theta) @ q) @ (turn(n * theta).T @ k) / np.sqrt(2))
