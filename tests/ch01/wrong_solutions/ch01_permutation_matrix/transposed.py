"""this matrix undoes the permutation (it is the transpose of the one asked for). Hint: row m should pick row
order[m] of x, so the 1 of row m sits in column order[m]."""

import numpy as np


def permutation_matrix(order):
    n = len(order)
    p = np.zeros((n, n))
    p[order, np.arange(n)] = 1.0
    return p
