"""no positions give an empty table before d and the factors are checked. Hint: check d and the lists of factors
first: an odd d raises ValueError even when there are no positions."""

import numpy as np


def longrope_angles(d, short_factor, long_factor, positions, original_context, base=10000.0):
    positions = np.asarray(positions, dtype=float)
    if positions.size == 0:
        return np.zeros((0, d // 2))
    if d % 2 or len(short_factor) != d // 2 or len(long_factor) != d // 2:
        raise ValueError(f"d = {d}: lists of d/2 factors expected")
    factors = np.asarray(short_factor if positions.max() + 1 <= original_context else long_factor)
    return np.outer(positions, base ** (-np.arange(0, d, 2) / d) / factors)
