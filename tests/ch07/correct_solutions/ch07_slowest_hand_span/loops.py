"""math.ceil of the period, a Python int."""

import math


def slowest_hand_span(d, base=10000.0):
    return math.ceil(2 * math.pi / base ** (-(d - 2) / d))
