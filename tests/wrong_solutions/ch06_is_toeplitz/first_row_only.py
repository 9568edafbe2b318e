"""Only the diagonals that start in the first row are checked, and only one step."""

import numpy as np


def is_toeplitz(s, tol=1e-9):
    return bool(np.all(np.abs(s[0, :-1] - s[1, 1:]) <= tol))
