"""Pair by pair with Python loops and the math module, no table of angles at all."""

import math

import numpy as np


def rope_half_fixed(x, positions, base=10000.0):
    seq, d = x.shape
    out = np.zeros((seq, d))
    for i in range(seq):
        for j in range(d // 2):
            angle = positions[i] * base ** (-2 * j / d)
            a, b = x[i, j], x[i, j + d // 2]
            out[i, j] = a * math.cos(angle) - b * math.sin(angle)
            out[i, j + d // 2] = a * math.sin(angle) + b * math.cos(angle)
    return out
