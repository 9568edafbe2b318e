"""Checks the diagonals as if the matrix were square: offsets up to the number of rows only, so a matrix with
more columns than rows keeps its far diagonals unchecked."""

import numpy as np


def is_toeplitz(s, tol=1e-9):
    n = s.shape[0]
    return all(bool(np.all(np.abs(np.diff(np.diagonal(s, offset))) <= tol)) for offset in range(1 - n, n))
