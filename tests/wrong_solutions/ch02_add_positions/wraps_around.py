"""A sequence longer than the table silently reuses its rows from the top."""

import numpy as np


def add_positions(x, table):
    return x + table[np.arange(x.shape[0]) % table.shape[0]]
