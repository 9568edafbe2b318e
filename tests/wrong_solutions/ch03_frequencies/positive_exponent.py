"""The ladder climbs instead of descending: base ** (+2j / d)."""

import numpy as np


def frequencies(d, base=10000.0):
    return base ** (np.arange(0, d, 2) / d)
