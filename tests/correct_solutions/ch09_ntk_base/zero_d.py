"""A 0-d array from solving the log equation."""

import numpy as np


def ntk_base(base, scale, d):
    return np.exp(np.asarray(np.log(base) + np.log(scale) * d / (d - 2)))
