"""Plain Python: attention loops over rows and columns with math.exp; permutation_matrix fills nested lists."""

import math

import numpy as np


def attention(q, k, v):
    d = len(q[0])
    out = []
    for row in q:
        scores = [sum(a * b for a, b in zip(row, key, strict=True)) / math.sqrt(d) for key in k]
        top = max(scores)
        weights = [math.exp(s - top) for s in scores]
        total = sum(weights)
        out.append([sum(w / total * value[c] for w, value in zip(weights, v, strict=True)) for c in range(len(v[0]))])
    return np.array(out)


def permutation_matrix(order):
    n = len(order)
    rows = [[0.0] * n for _ in range(n)]
    for i, j in enumerate(order):
        rows[i][int(j)] = 1.0
    return np.array(rows)
