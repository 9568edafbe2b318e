"""The right ladder, but d = 2 is not refused: d / (d - 2) divides by zero (ZeroDivisionError, not ValueError)."""

import numpy as np


def ntk_aware(d, factor, base=10000.0):
    new_base = base * factor ** (d / (d - 2))
    return new_base ** (-np.arange(0, d, 2) / d)
