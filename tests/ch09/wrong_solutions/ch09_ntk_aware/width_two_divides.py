"""d = 2 is not refused. Hint: a head of width 2 has only hand 0, which no base slows: raise ValueError."""

import numpy as np


def ntk_aware(d, factor, base=10000.0):
    new_base = base * factor ** (d / (d - 2))
    return new_base ** (-np.arange(0, d, 2) / d)
