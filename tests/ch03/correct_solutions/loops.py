"""Plain Python loops: the shift matrix block by block with a 2x2 rotation."""

import numpy as np


def shift_matrix(k, d, base=10000.0):
    m = np.zeros((d, d))
    for j in range(d // 2):
        t = k * base ** (-2 * j / d)
        m[2 * j:2 * j + 2, 2 * j:2 * j + 2] = [[np.cos(t), np.sin(t)], [-np.sin(t), np.cos(t)]]
    return m
