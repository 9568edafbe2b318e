"""1 / theta_j: a full turn taken as 1 radian."""

import numpy as np


def hand_periods(d, base=10000.0):
    return 1.0 / base ** (-np.arange(0, d, 2) / d)
