"""the extra heads take the first slopes of 2H' heads, repeating some of the others. Hint: the extra heads take every
other slope of 2H' heads (τ = 1, 3, 5, ...), the ones that the first H' heads do not have."""

import numpy as np


def alibi_slopes(n_heads):
    closest = 2 ** int(np.log2(n_heads))
    slopes = 2.0 ** (-8.0 * np.arange(1, closest + 1) / closest)
    extra = 2.0 ** (-8.0 * np.arange(1, n_heads - closest + 1) / (2 * closest))
    return np.concatenate([slopes, extra])
