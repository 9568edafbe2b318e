"""the fastest hand is slowed and the slowest kept: the tilt is reversed. Hint: hand 0 keeps its frequency; the last
hand is slowed by exactly the factor."""

import numpy as np


def ntk_aware(d, factor, base=10000.0):
    if d == 2:
        raise ValueError("ntk_aware: d must be at least 4")
    j = np.arange(d // 2)
    return base ** (-2 * j / d) * factor ** (2 * j / (d - 2) - 1)
