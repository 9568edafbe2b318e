"""it says True for a matrix with more columns than rows whose last entry breaks its diagonal. Hint: a matrix with
more columns than rows has more diagonals above the main one than below it: check them all."""

import numpy as np


def is_toeplitz(s, tol=1e-9):
    n = s.shape[0]
    return all(bool(np.all(np.abs(np.diff(np.diagonal(s, offset))) <= tol)) for offset in range(1 - n, n))
