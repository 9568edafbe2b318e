"""Pairs counted in both directions, as if the mask were not causal."""

import numpy as np


def offset_counts(n):
    return 2 * (n - np.arange(n))
