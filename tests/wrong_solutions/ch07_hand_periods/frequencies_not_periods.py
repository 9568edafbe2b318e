"""Returns the frequencies theta_j themselves."""

import numpy as np


def hand_periods(d, base=10000.0):
    return base ** (-np.arange(0, d, 2) / d)
