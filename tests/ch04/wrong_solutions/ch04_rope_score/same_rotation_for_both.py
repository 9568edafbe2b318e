"""the positions have no effect. Hint: turn q by m·θ and k by n·θ."""

import numpy as np


def rope_score(q, k, m, n, theta):
    def turn(a):
        return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])

    return float((turn(m * theta) @ q) @ (turn(m * theta) @ k) / np.sqrt(2))
