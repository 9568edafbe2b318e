"""An np.matrix, the textbook way."""

import numpy as np


def rotation(angle):
    return np.matrix([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
