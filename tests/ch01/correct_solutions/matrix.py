"""Rows of the identity, returned as an np.matrix of integers."""

import numpy as np


def permutation_matrix(order):
    return np.matrix(np.eye(len(order), dtype=int)[order])
