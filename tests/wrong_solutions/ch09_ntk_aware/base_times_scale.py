"""The base multiplied by the factor itself, so the slowest hand is slowed by less than the factor."""

import numpy as np


def ntk_aware(d, factor, base=10000.0):
    return (base * factor) ** (-np.arange(0, d, 2) / d)
