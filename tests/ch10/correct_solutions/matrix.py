"""A d x d block-diagonal rotation matrix built entry by entry in loops, times x."""

import math

import numpy as np


def axial_rope_vector(x, row, col, base=10000.0):
    d = len(x)
    half = d // 2
    rotation = np.zeros((d, d))
    for start, position in ((0, row), (half, col)):
        for j in range(half // 2):
            angle = position * base ** (-2 * j / half)
            i = start + 2 * j
            rotation[i, i], rotation[i, i + 1] = math.cos(angle), -math.sin(angle)
            rotation[i + 1, i], rotation[i + 1, i + 1] = math.sin(angle), math.cos(angle)
    return rotation @ np.asarray(x, dtype=float)
