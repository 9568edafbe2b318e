"""that is a sum of sines. Hint: sin a sin b + cos a cos b is a cosine."""

import numpy as np


def offset_similarity(k, d, base=10000.0):
    return float(np.sin(k * base ** (-np.arange(0, d, 2) / d)).sum())
