"""it uses the fastest hand. Hint: the slowest hand is the last one of the ladder."""

import numpy as np


def slowest_hand_span(d, base=10000.0):
    return int(np.ceil(2 * np.pi / 1.0))
