"""1 / theta_j: a full turn taken as one radian, the factor 2 pi forgotten."""

import numpy as np


def wavelengths(d, base=10000.0):
    return base ** (np.arange(0, d, 2) / d)
