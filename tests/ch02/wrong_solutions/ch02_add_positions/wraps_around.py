"""a sequence longer than the table reuses the table's rows from the top. Hint: when the sequence is longer than the
table, raise ValueError with a message that says how many positions the table has."""

import numpy as np


def add_positions(x, table):
    return x + table[np.arange(x.shape[0]) % table.shape[0]]
