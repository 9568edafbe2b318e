"""sine and cosine are swapped. Hint: rotation(0) should leave every vector where it is."""

import numpy as np


def rotation(angle):
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[s, -c], [c, s]])
