"""it says True for a Toeplitz matrix whose diagonals do not wrap around. Hint: constant diagonals are not enough:
they must also wrap around."""

import numpy as np


def is_circulant(s, tol=1e-9):
    return bool(np.all(np.abs(s[:-1, :-1] - s[1:, 1:]) <= tol))
