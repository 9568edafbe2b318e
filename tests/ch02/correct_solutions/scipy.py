"""scipy.linalg.toeplitz: the first column and the first row of the offsets."""

from scipy.linalg import toeplitz


def relative_scores(bias, n_positions):
    return toeplitz(bias[n_positions - 1::-1], bias[n_positions - 1:])
