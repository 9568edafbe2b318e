"""pairs are counted twice. Hint: a causal query only looks back."""

import numpy as np


def offset_counts(n):
    return 2 * (n - np.arange(n))
