"""Heads numbered from k = 0, so the first head gets slope 1 (and the last misses 2 ** -8)."""

import numpy as np


def alibi_slopes(n_heads):
    closest = 2 ** int(np.log2(n_heads))
    slopes = 2.0 ** (-8.0 * np.arange(closest) / closest)
    extra = 2.0 ** (-8.0 * np.arange(0, 2 * (n_heads - closest), 2) / (2 * closest))
    return np.concatenate([slopes, extra])
