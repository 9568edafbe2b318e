"""float32 throughout, the exponents as a boolean-masked selection of one ladder of 2c slopes."""

import numpy as np


def alibi_slopes(n_heads):
    closest = 1
    while 2 * closest <= n_heads:
        closest *= 2
    fine = np.float32(2.0) ** (np.float32(-8.0) * np.arange(1, 2 * closest + 1, dtype=np.float32) / (2 * closest))
    even, odd = fine[1::2], fine[0::2]  # slopes of c heads; the in-between ones
    return np.concatenate([even, odd[: n_heads - closest]]).astype(np.float32)
