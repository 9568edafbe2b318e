"""it adds one cosine per dimension instead of one per pair. Hint: PE(p)·PE(q) sums sin·sin + cos·cos over each pair
j: one cos(k θ_j) per pair."""

import numpy as np


def offset_similarity(k, d, base=10000.0):
    return float(np.cos(k * base ** (-np.arange(d) / d)).sum())
