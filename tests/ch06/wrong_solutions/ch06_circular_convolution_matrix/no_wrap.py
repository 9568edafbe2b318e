"""the sum does not wrap around. Hint: the index i - j is taken modulo n."""

import numpy as np


def circular_convolution_matrix(w):
    n = w.shape[0]
    i, l = np.indices((n, n))
    return np.where(i >= l, w[np.clip(i - l, 0, n - 1)], 0.0)
