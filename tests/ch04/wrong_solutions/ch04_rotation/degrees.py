"""it reads the angle in degrees. Hint: angles here are in radians."""

import numpy as np


def rotation(angle):
    a = np.deg2rad(angle)
    return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
