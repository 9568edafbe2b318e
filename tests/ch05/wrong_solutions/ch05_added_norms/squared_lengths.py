"""these are squared lengths. Hint: take the square root."""

import numpy as np

from posenc.sinusoidal import sinusoidal_table


def added_norms(q, n_positions):
    return np.sum((q + sinusoidal_table(n_positions, q.shape[0])) ** 2, axis=1)
