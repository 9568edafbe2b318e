"""One cosine per dimension (d terms) instead of one per pair."""

import numpy as np


def offset_similarity(k, d, base=10000.0):
    return float(np.cos(k * base ** (-np.arange(d) / d)).sum())
