"""this matrix undoes the permutation (it is the transpose of the one asked for). Hint: row i should pick row
order[i] of x, so the 1 of row i sits in column order[i]."""

import numpy as np


def permutation_matrix(order):
    n = len(order)
    p = np.zeros((n, n))
    p[order, np.arange(n)] = 1.0
    return p
