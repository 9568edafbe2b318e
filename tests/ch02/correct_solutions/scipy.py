"""scipy.linalg.toeplitz: the first column and the first row of the offsets."""

from scipy.linalg import toeplitz


def relative_scores(bias, n):
    return toeplitz(bias[n - 1::-1], bias[n - 1:])
