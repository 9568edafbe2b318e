"""the base is multiplied by the factor itself. Hint: the new base is the one of exercise 2 for the slowest hand,
hand d/2 - 1."""

import numpy as np


def ntk_aware(d, factor, base=10000.0):
    return (base * factor) ** (-np.arange(0, d, 2) / d)
