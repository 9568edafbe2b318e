"""it says False for a Toeplitz matrix whose diagonals do not wrap around. Hint: constant diagonals are enough; do
not ask for wrapping."""

import numpy as np


def is_toeplitz(s, tol=1e-9):
    return bool(np.all(np.abs(s - np.roll(s, (-1, -1), axis=(0, 1))) <= tol))
