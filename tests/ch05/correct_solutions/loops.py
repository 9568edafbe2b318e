"""math.sqrt of a sum of squares, position by position."""

import math

import numpy as np

from posenc.sinusoidal import sinusoidal_table


def added_norms(q, n_positions):
    table = sinusoidal_table(n_positions, len(q))
    return np.array([math.sqrt(sum((a + b) ** 2 for a, b in zip(q, row, strict=True))) for row in table])
