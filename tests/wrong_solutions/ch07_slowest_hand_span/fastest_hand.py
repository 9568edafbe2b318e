"""The span of the fastest hand (theta_0 = 1) instead of the slowest."""

import numpy as np


def slowest_hand_span(d, base=10000.0):
    return int(np.ceil(2 * np.pi / 1.0))
