"""float32 positions."""

import numpy as np


def interpolated_positions(positions, trained_length, target_length):
    return np.asarray(positions, dtype=np.float32) * np.float32(trained_length / target_length)
