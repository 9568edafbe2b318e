"""it turns clockwise. Hint: a positive angle should carry (1, 0) toward (0, 1)."""

import numpy as np


def rotate(q, m, theta):
    c, s = np.cos(m * theta), np.sin(m * theta)
    return np.array([q[0] * c + q[1] * s, -q[0] * s + q[1] * c])
