"""The chapter's scaling.longrope at the batch's length, times each position; posenc's own checks raise the
ValueError for an odd d or a list of the wrong length."""

import numpy as np

from posenc import scaling


def longrope_angles(d, short_factor, long_factor, positions, original_context, base=10000.0):
    positions = np.asarray(positions)
    length = positions.max() + 1 if positions.size else 1  # no positions: any length, for posenc's checks
    return positions[:, None] * scaling.longrope(d, short_factor, long_factor, length, original_context, base)
