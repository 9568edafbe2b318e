"""Sine and cosine swapped."""

import numpy as np


def rotation(angle):
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[s, -c], [c, s]])
