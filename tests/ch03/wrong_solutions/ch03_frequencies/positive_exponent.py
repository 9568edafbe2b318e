"""the exponent has the wrong sign. Hint: the hands should slow down, from 1 radian per position toward 1/base."""

import numpy as np


def frequencies(d, base=10000.0):
    return base ** (np.arange(0, d, 2) / d)
