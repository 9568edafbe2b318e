"""the sum does not wrap around. Hint: the index m - ℓ is taken modulo N."""

import numpy as np


def circular_convolution_matrix(w):
    size = w.shape[0]
    m, p = np.indices((size, size))
    return np.where(m >= p, w[np.clip(m - p, 0, size - 1)], 0.0)
