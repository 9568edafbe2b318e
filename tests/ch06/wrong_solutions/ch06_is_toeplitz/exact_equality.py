"""it says False for a Toeplitz matrix whose entries agree only up to round-off (1e-13). Hint: compare differences
with `tol`, not with ==."""

import numpy as np


def is_toeplitz(s, tol=1e-9):
    return bool(np.all(s[:-1, :-1] == s[1:, 1:]))
