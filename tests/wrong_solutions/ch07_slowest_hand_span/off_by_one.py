"""floor instead of ceil: position 0 not counted."""

import numpy as np


def slowest_hand_span(d, base=10000.0):
    return int(np.floor(2 * np.pi / base ** (-(d - 2) / d)))
