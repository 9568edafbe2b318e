"""Rows compared with the row above shifted left instead of right."""

import numpy as np


def is_circulant(s, tol=1e-9):
    return bool(np.all(np.abs(s - np.roll(s, (-1, 1), axis=(0, 1))) <= tol))
