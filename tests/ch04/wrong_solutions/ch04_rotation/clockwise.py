"""it turns clockwise. Hint: a small positive angle should carry (1, 0) toward (0, 1)."""

import numpy as np


def rotation(angle):
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, s], [-s, c]])
