"""the factors multiply the frequencies. Hint: a factor above 1 slows its hand: divide by it."""

import numpy as np


def longrope_angles(d, short_factor, long_factor, positions, original_context, base=10000.0):
    if d % 2 or len(short_factor) != d // 2 or len(long_factor) != d // 2:
        raise ValueError(f"d = {d}: lists of d/2 factors expected")
    positions = np.asarray(positions, dtype=float)
    if positions.size == 0:
        return np.zeros((0, d // 2))
    factors = np.asarray(short_factor if positions.max() + 1 <= original_context else long_factor)
    return np.outer(positions, base ** (-np.arange(0, d, 2) / d) * factors)
