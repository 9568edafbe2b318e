"""these are the frequencies θ_j. Hint: a period is the number of positions one full turn takes."""

import numpy as np


def hand_periods(d, base=10000.0):
    return base ** (-np.arange(0, d, 2) / d)
