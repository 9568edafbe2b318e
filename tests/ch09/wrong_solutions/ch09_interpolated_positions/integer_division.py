"""integer division drops the fractions. Hint: positions may be fractional."""

import numpy as np


def interpolated_positions(positions, trained_length, target_length):
    return np.asarray(positions) * trained_length // target_length
