"""the first head's slope is 1: k starts at 0. Hint: head k = 1, ..., n gets 2 ** (-8k/n), so every slope is below 1."""

import numpy as np


def alibi_slopes(n_heads):
    closest = 2 ** int(np.log2(n_heads))
    slopes = 2.0 ** (-8.0 * np.arange(closest) / closest)
    extra = 2.0 ** (-8.0 * np.arange(0, 2 * (n_heads - closest), 2) / (2 * closest))
    return np.concatenate([slopes, extra])
