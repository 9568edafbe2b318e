"""Says False for a matrix that is not square, where the question asks for a ValueError."""

import numpy as np


def is_circulant(s, tol=1e-9):
    if s.shape[0] != s.shape[1]:
        return False
    return bool(np.all(np.abs(s - np.roll(s, (-1, -1), axis=(0, 1))) <= tol))
