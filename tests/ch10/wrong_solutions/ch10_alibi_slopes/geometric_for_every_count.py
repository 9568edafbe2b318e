"""the plain geometric sequence is used for a head count that is not a power of two. Hint: take the slopes of the
largest power of two H' below H, then add slopes from 2H' heads."""

import numpy as np


def alibi_slopes(n_heads):
    return 2.0 ** (-8.0 * np.arange(1, n_heads + 1) / n_heads)
