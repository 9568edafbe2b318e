"""Nested lists filled in a loop."""

import numpy as np


def permutation_matrix(order):
    n = len(order)
    rows = [[0.0] * n for _ in range(n)]
    for i, j in enumerate(order):
        rows[i][int(j)] = 1.0
    return np.array(rows)
