"""The sum does not wrap around: a lower-triangular Toeplitz matrix."""

import numpy as np


def circular_convolution_matrix(w):
    n = w.shape[0]
    i, l = np.indices((n, n))
    return np.where(i >= l, w[np.clip(i - l, 0, n - 1)], 0.0)
