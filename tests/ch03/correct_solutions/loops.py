"""Plain Python loops: the table with math.sin and math.cos, the shift matrix block by block with a 2x2 rotation."""

import math

import numpy as np


def sinusoidal_table(n, d, base=10000.0):
    table = [[0.0] * d for _ in range(n)]
    for p in range(n):
        for j in range(d // 2):
            angle = p / base ** (2 * j / d)
            table[p][2 * j], table[p][2 * j + 1] = math.sin(angle), math.cos(angle)
    return np.array(table)


def shift_matrix(k, d, base=10000.0):
    m = np.zeros((d, d))
    for j in range(d // 2):
        t = k * base ** (-2 * j / d)
        m[2 * j:2 * j + 2, 2 * j:2 * j + 2] = [[np.cos(t), np.sin(t)], [-np.sin(t), np.cos(t)]]
    return m
