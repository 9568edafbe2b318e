"""float32 arithmetic: the periods and the distance."""

import numpy as np


def hand_periods(d, base=10000.0):
    theta = (base ** (-np.arange(0, d, 2) / d)).astype(np.float32)
    return np.float32(2 * np.pi) / theta


def alias_distance(theta, k):
    turned = np.float32(k) * np.float32(theta) % np.float32(2 * np.pi)
    return min(turned, np.float32(2 * np.pi) - turned)
