"""every hand is slowed by the factor: that is position interpolation. Hint: with the larger base the fastest hand
keeps θ_0 = 1."""

import numpy as np


def ntk_aware(d, factor, base=10000.0):
    return base ** (-np.arange(0, d, 2) / d) / factor
