"""Plain Python loops: offset_counts counts the pairs into a list of ints turned into an array; relative_scores reads
the bias in a double loop."""

import numpy as np


def offset_counts(n):
    counts = [0] * n
    for query in range(n):
        for key in range(query + 1):
            counts[query - key] += 1
    return np.array(counts)


def relative_scores(bias, n):
    return np.array([[bias[j - m + n - 1] for j in range(n)] for m in range(n)])
