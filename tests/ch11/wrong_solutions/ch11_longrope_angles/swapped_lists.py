"""the lists are swapped: the long factors serve the short inputs. Hint: short_factor up to the original context,
long_factor beyond it."""

import numpy as np


def longrope_angles(d, short_factor, long_factor, positions, original_context, base=10000.0):
    if d % 2 or len(short_factor) != d // 2 or len(long_factor) != d // 2:
        raise ValueError(f"d = {d}: lists of d/2 factors expected")
    positions = np.asarray(positions, dtype=float)
    if positions.size == 0:
        return np.zeros((0, d // 2))
    factors = np.asarray(long_factor if positions.max() + 1 <= original_context else short_factor)
    return np.outer(positions, base ** (-np.arange(0, d, 2) / d) / factors)
