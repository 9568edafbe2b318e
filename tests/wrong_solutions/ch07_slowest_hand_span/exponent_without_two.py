"""The slowest hand of a ladder without the factor 2."""

import numpy as np


def slowest_hand_span(d, base=10000.0):
    return int(np.ceil(2 * np.pi / base ** (-(d // 2 - 1) / d)))
