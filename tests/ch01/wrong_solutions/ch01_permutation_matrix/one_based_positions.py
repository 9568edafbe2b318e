"""the 1s sit one column to the left. Hint: positions in `order` start at 0."""

import numpy as np


def permutation_matrix(order):
    return np.eye(len(order))[np.asarray(order) - 1]
