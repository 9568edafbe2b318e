"""float32 periods."""

import numpy as np


def hand_periods(d, base=10000.0):
    theta = (base ** (-np.arange(0, d, 2) / d)).astype(np.float32)
    return np.float32(2 * np.pi) / theta
