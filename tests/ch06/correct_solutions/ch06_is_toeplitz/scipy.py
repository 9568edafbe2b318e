"""Rebuild with scipy.linalg.toeplitz and compare."""

import numpy as np
from scipy.linalg import toeplitz


def is_toeplitz(s, tol=1e-9):
    return bool(np.allclose(toeplitz(s[:, 0], s[0, :]), s, rtol=0, atol=tol))
