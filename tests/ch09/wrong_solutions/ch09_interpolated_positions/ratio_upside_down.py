"""the ratio is upside down. Hint: the positions should shrink into the trained range."""

import numpy as np


def interpolated_positions(positions, trained_length, target_length):
    return np.asarray(positions, dtype=float) * target_length / trained_length
