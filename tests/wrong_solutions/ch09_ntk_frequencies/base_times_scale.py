"""The base multiplied by the scale itself, so the slowest hand is slowed by less than the scale."""

import numpy as np


def ntk_frequencies(d, base, scale):
    return (base * scale) ** (-np.arange(0, d, 2) / d)
