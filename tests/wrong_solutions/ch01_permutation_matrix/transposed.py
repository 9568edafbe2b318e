"""The inverse permutation: the 1 of row order[i] put in column i."""

import numpy as np


def permutation_matrix(order):
    n = len(order)
    p = np.zeros((n, n))
    p[order, np.arange(n)] = 1.0
    return p
