"""Counting pairs with two loops; a list of ints turned into an array."""

import numpy as np


def offset_counts(n):
    counts = [0] * n
    for query in range(n):
        for key in range(query + 1):
            counts[query - key] += 1
    return np.array(counts)
