"""a full turn is taken as 1 radian. Hint: a full turn is 2π radians."""

import numpy as np


def hand_periods(d, base=10000.0):
    return 1.0 / base ** (-np.arange(0, d, 2) / d)
