"""The frequencies theta_j themselves, not the positions one turn takes."""

import numpy as np


def wavelengths(d, base=10000.0):
    return base ** (-np.arange(0, d, 2) / d)
