"""The tilt the wrong way round: the fastest hand slowed by the scale, the slowest kept."""

import numpy as np


def ntk_frequencies(d, base, scale):
    j = np.arange(d // 2)
    return base ** (-2 * j / d) * scale ** (2 * j / (d - 2) - 1)
