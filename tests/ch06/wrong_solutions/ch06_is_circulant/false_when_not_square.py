"""it says False for a matrix that is not square. Hint: a matrix that is not square raises ValueError saying that it
must be square."""

import numpy as np


def is_circulant(s, tol=1e-9):
    if s.shape[0] != s.shape[1]:
        return False
    return bool(np.all(np.abs(s - np.roll(s, (-1, -1), axis=(0, 1))) <= tol))
