"""scipy.linalg.circulant: rebuild from the first column (after refusing a matrix that is not square) and compare;
circulant(w) is exactly C."""

import numpy as np
from scipy.linalg import circulant


def is_circulant(s, tol=1e-9):
    if s.shape[0] != s.shape[1]:
        raise ValueError(f"Square matrix required, got shape {s.shape}")
    return bool(np.allclose(circulant(s[:, 0]), s, rtol=0, atol=tol))


def circular_convolution_matrix(w):
    return circulant(w)
