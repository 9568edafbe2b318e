"""the offsets run the wrong way. Hint: entry [m, n] belongs to the offset n - m (key minus query)."""

import numpy as np


def relative_scores(bias, n_positions):
    m, n = np.indices((n_positions, n_positions))
    return bias[m - n + n_positions - 1]
