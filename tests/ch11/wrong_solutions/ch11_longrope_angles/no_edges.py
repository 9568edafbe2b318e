"""the edges are not checked. Hint: an odd d or a list of other than d/2 factors raises ValueError, and no positions
give a table of shape (0, d/2)."""

import numpy as np


def longrope_angles(d, short_factor, long_factor, positions, original_context, base=10000.0):
    positions = np.asarray(positions, dtype=float)
    factors = np.asarray(short_factor if positions.max() + 1 <= original_context else long_factor)
    return np.outer(positions, base ** (-np.arange(0, d, 2) / d) / factors)
