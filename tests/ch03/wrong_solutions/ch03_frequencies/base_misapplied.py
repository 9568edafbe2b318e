"""the base divides instead of being raised to a power. Hint: theta_j = base ** (-2j/d)."""

import numpy as np


def frequencies(d, base=10000.0):
    return 1.0 / (1.0 + np.arange(0, d, 2) * base / d)
