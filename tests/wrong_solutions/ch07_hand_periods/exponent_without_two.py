"""The ladder's exponent without its factor 2."""

import numpy as np


def hand_periods(d, base=10000.0):
    return 2 * np.pi / base ** (-np.arange(d // 2) / d)
