"""that adds the two lengths. Hint: the length of a sum depends on the angle between the vectors: add first, then
measure."""

import numpy as np

from posenc.sinusoidal import sinusoidal_table


def added_norms(q, n_positions):
    return np.linalg.norm(q) + np.linalg.norm(sinusoidal_table(n_positions, q.shape[0]), axis=1)
