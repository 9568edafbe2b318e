"""Plain Python loops: each entry against its down-right neighbour (any shape; a Python bool); each row against the
one above shifted right by one (a matrix that is not square refused first); C from np.roll of w, a column at a time;
the design one pair at a time, in lists turned into arrays."""

import math

import numpy as np


def is_toeplitz(s, tol=1e-9):
    rows, columns = len(s), len(s[0])
    return all(abs(s[m][j] - s[m + 1][j + 1]) <= tol for m in range(rows - 1) for j in range(columns - 1))


def is_circulant(s, tol=1e-9):
    n = len(s)
    if any(len(row) != n for row in s):
        raise ValueError(f"is_circulant: the matrix must be square, got {n} rows of {len(s[0])}")
    return all(abs(s[m][j] - s[m - 1][(j - 1) % n]) <= tol for m in range(1, n) for j in range(n))


def circular_convolution_matrix(w):
    return np.stack([np.roll(w, j) for j in range(len(w))], axis=1)


def design_lookback(d, base):
    q, k = [], []
    for j in range(d // 2):
        angle = 3 * base ** (-2 * j / d)
        q += [12.0, 0.0]
        k += [12.0 * math.cos(angle), 12.0 * math.sin(angle)]
    return np.array(q), np.array(k)
