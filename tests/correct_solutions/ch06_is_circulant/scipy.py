"""Rebuild with scipy.linalg.circulant (which takes the first column) and compare."""

import numpy as np
from scipy.linalg import circulant


def is_circulant(s, tol=1e-9):
    return bool(np.allclose(circulant(s[:, 0]), s, rtol=0, atol=tol))
