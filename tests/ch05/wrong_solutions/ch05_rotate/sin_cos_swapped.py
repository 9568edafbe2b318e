"""sine and cosine are swapped. Hint: at angle 0 nothing should move."""

import numpy as np


def rotate(q, m, theta):
    c, s = np.cos(m * theta), np.sin(m * theta)
    return np.array([q[0] * s - q[1] * c, q[0] * c + q[1] * s])
