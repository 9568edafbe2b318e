"""the ladder's exponent lacks its factor 2. Hint: θ_j = base ** (-2j/d), and the slowest hand is j = d/2 - 1."""

import numpy as np


def slowest_hand_span(d, base=10000.0):
    return int(np.ceil(2 * np.pi / base ** (-(d // 2 - 1) / d)))
