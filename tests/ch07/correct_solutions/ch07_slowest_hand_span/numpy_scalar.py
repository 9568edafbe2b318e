"""Returns np.ceil's float64."""

import numpy as np


def slowest_hand_span(d, base=10000.0):
    return np.ceil(2 * np.pi * base ** ((d - 2) / d))
