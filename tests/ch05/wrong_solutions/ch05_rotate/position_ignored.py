"""the angle ignores the position. Hint: turn by m·θ, not θ."""

import numpy as np


def rotate(q, m, theta):
    c, s = np.cos(theta), np.sin(theta)
    return np.array([q[0] * c - q[1] * s, q[0] * s + q[1] * c])
