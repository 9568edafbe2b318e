"""the positions are off by one. Hint: the first is position 0."""

import numpy as np

from posenc.sinusoidal import sinusoidal_table


def added_norms(q, n_positions):
    return np.linalg.norm(q + sinusoidal_table(n_positions + 1, q.shape[0])[1:], axis=1)
