"""Every hand divided by the scale: position interpolation's ladder, not NTK-aware scaling's."""

import numpy as np


def ntk_frequencies(d, base, scale):
    return base ** (-np.arange(0, d, 2) / d) / scale
