"""A loop keeping the best offset so far."""

import math


def closest_alias(theta, n_positions):
    best, best_k = math.inf, None
    for k in range(1, n_positions):
        turned = (k * theta) % (2 * math.pi)
        distance = min(turned, 2 * math.pi - turned)
        if distance < best:
            best, best_k = distance, k
    return best_k
