"""these are the frequencies θ_j. Hint: a wavelength is the number of positions that one full turn takes."""

import numpy as np


def wavelengths(d, base=10000.0):
    return base ** (-np.arange(0, d, 2) / d)
