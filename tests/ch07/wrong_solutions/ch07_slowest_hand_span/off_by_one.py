"""it is one short. Hint: count position 0 too."""

import numpy as np


def slowest_hand_span(d, base=10000.0):
    return int(np.floor(2 * np.pi / base ** (-(d - 2) / d)))
