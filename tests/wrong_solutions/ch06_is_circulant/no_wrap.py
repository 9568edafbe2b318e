"""Constant diagonals only: a Toeplitz test."""

import numpy as np


def is_circulant(s, tol=1e-9):
    return bool(np.all(np.abs(s[:-1, :-1] - s[1:, 1:]) <= tol))
