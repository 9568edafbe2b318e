"""A float32 table and norm."""

import numpy as np

from posenc.sinusoidal import sinusoidal_table


def added_norms(q, n_positions):
    summed = (q + sinusoidal_table(n_positions, q.shape[0])).astype(np.float32)
    return np.sqrt((summed * summed).sum(axis=1))
