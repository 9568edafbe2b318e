"""The ladder base ** (-j / d): the factor 2 of the exponent forgotten."""

import numpy as np


def frequencies(d, base=10000.0):
    return base ** (-np.arange(d // 2) / d)
