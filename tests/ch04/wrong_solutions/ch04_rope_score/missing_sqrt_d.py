"""the dot product is not scaled. Hint: divide by √d, and d = 2 here."""

import numpy as np


def rope_score(q, k, m, n, theta):
    def turn(a):
        return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])

    return float((turn(m * theta) @ q) @ (turn(n * theta) @ k))
