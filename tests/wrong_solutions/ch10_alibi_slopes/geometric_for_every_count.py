"""The power-of-two rule 2 ** (-8k/n) used for every head count, 12 and 6 heads included."""

import numpy as np


def alibi_slopes(n_heads):
    return 2.0 ** (-8.0 * np.arange(1, n_heads + 1) / n_heads)
