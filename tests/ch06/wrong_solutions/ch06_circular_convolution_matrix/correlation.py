"""that is a correlation (x taken at i + j). Hint: a convolution takes x at i - j."""

import numpy as np


def circular_convolution_matrix(w):
    n = w.shape[0]
    i, l = np.indices((n, n))
    return w[(l - i) % n]
