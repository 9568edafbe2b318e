"""Wavelengths in float32, from the ladder of frequencies."""

import numpy as np


def wavelengths(d, base=10000.0):
    theta = np.float32(base) ** (-np.arange(0, d, 2, dtype=np.float32) / np.float32(d))
    return np.float32(2 * np.pi) / theta
