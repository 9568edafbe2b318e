"""A matrix product with np.matrix, flattened."""

import numpy as np


def rotate(q, m, theta):
    a = m * theta
    r = np.matrix([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return np.asarray(r @ np.asarray(q).reshape(2, 1)).ravel()
