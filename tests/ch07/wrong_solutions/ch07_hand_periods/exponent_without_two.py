"""the ladder's exponent lacks its factor 2. Hint: θ_j = base ** (-2j/d)."""

import numpy as np


def hand_periods(d, base=10000.0):
    return 2 * np.pi / base ** (-np.arange(d // 2) / d)
