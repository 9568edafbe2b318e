"""Turns by theta whatever the position m."""

import numpy as np


def rotate(q, m, theta):
    c, s = np.cos(theta), np.sin(theta)
    return np.array([q[0] * c - q[1] * s, q[0] * s + q[1] * c])
