"""Exact equality, no tolerance for round-off."""

import numpy as np


def is_toeplitz(s, tol=1e-9):
    return bool(np.all(s[:-1, :-1] == s[1:, 1:]))
