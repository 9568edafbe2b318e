"""Plain loops with math.sin and math.cos."""

import math

import numpy as np


def sinusoidal_table(n, d, base=10000.0):
    table = [[0.0] * d for _ in range(n)]
    for p in range(n):
        for j in range(d // 2):
            angle = p / base ** (2 * j / d)
            table[p][2 * j], table[p][2 * j + 1] = math.sin(angle), math.cos(angle)
    return np.array(table)
