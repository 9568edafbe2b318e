"""that is a cross-correlation (y taken at m + ℓ, as a convolution layer reads it). Hint: a circular convolution
takes y at (m - ℓ) mod N, the filter read backwards."""

import numpy as np


def circular_convolution_matrix(w):
    size = w.shape[0]
    m, p = np.indices((size, size))
    return w[(p - m) % size]
