"""it says True for a matrix whose last entry breaks the diagonal. Hint: check every entry, down to the last row."""

import numpy as np


def is_toeplitz(s, tol=1e-9):
    return bool(np.all(np.abs(s[0, :-1] - s[1, 1:]) <= tol))
