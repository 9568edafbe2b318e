"""Offsets taken as query minus key."""

import numpy as np


def relative_scores(bias, n):
    m, j = np.indices((n, n))
    return bias[m - j + n - 1]
