"""each row is compared with the row above shifted left. Hint: shift a row right by one, the last entry wrapping to
the front: it should match the row below."""

import numpy as np


def is_circulant(s, tol=1e-9):
    return bool(np.all(np.abs(s - np.roll(s, (-1, 1), axis=(0, 1))) <= tol))
