"""Plain Python: a loop keeping the best offset so far; math.ceil of the period, a Python int."""

import math


def closest_alias(theta, n_positions):
    best, best_k = math.inf, None
    for k in range(1, n_positions):
        turned = (k * theta) % (2 * math.pi)
        distance = min(turned, 2 * math.pi - turned)
        if distance < best:
            best, best_k = distance, k
    return best_k


def slowest_hand_span(d, base=10000.0):
    return math.ceil(2 * math.pi / base ** (-(d - 2) / d))
