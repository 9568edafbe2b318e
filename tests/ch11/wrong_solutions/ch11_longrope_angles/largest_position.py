"""the length is taken to be the largest position, not the largest position plus one. Hint: positions count from 0: a
batch whose largest position is p is p + 1 positions long."""

import numpy as np


def longrope_angles(d, short_factor, long_factor, positions, original_context, base=10000.0):
    if d % 2 or len(short_factor) != d // 2 or len(long_factor) != d // 2:
        raise ValueError(f"d = {d}: lists of d/2 factors expected")
    positions = np.asarray(positions, dtype=float)
    if positions.size == 0:
        return np.zeros((0, d // 2))
    factors = np.asarray(short_factor if positions.max() <= original_context else long_factor)
    return np.outer(positions, base ** (-np.arange(0, d, 2) / d) / factors)
