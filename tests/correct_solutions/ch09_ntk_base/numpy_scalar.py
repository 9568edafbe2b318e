"""np.power, a numpy float64 returned as is."""

import numpy as np


def ntk_base(base, scale, d):
    return np.float64(base) * np.power(scale, d / (d - 2))
