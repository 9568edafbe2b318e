"""Each offset counted once too few."""

import numpy as np


def offset_counts(n):
    return n - np.arange(n) - 1
