"""Every hand divided by the factor: position interpolation's ladder, not NTK-aware scaling's."""

import numpy as np


def ntk_aware(d, factor, base=10000.0):
    return base ** (-np.arange(0, d, 2) / d) / factor
