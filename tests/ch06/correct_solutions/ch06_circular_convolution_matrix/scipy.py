"""scipy.linalg.circulant(w) is exactly C."""

from scipy.linalg import circulant


def circular_convolution_matrix(w):
    return circulant(w)
