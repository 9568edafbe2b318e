"""np.roll of w, one column at a time."""

import numpy as np


def circular_convolution_matrix(w):
    return np.stack([np.roll(w, j) for j in range(len(w))], axis=1)
