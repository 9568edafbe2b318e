"""A double loop."""

import numpy as np


def relative_scores(bias, n):
    return np.array([[bias[j - m + n - 1] for j in range(n)] for m in range(n)])
