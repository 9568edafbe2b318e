"""The key equal to the query: the scores peak at offset 0, the query's own position."""

import numpy as np


def design_lookback(d, base):
    q = np.full(d, 10.0)
    return q, q.copy()
