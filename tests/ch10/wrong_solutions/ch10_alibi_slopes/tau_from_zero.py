"""the first head's slope is 1: τ starts at 0. Hint: head τ = 1, ..., H gets 2 ** (-8τ/H), so every slope is below 1."""

import numpy as np


def alibi_slopes(n_heads):
    closest = 2 ** int(np.log2(n_heads))
    slopes = 2.0 ** (-8.0 * np.arange(closest) / closest)
    extra = 2.0 ** (-8.0 * np.arange(0, 2 * (n_heads - closest), 2) / (2 * closest))
    return np.concatenate([slopes, extra])
