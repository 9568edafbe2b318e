"""the offsets are shifted by one. Hint: offset 0 sits at bias[n - 1]."""

import numpy as np


def relative_scores(bias, n):
    m, j = np.indices((n, n))
    return bias[(j - m + n) % (2 * n - 1)]
