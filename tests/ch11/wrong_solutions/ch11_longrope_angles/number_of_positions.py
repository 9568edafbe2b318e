"""the length is taken to be the number of positions in the batch. Hint: a batch may start past 0, after a KV cache:
its length is its largest position plus one."""

import numpy as np


def longrope_angles(d, short_factor, long_factor, positions, original_context, base=10000.0):
    if d % 2 or len(short_factor) != d // 2 or len(long_factor) != d // 2:
        raise ValueError(f"d = {d}: lists of d/2 factors expected")
    positions = np.asarray(positions, dtype=float)
    factors = np.asarray(short_factor if len(positions) <= original_context else long_factor)
    return np.outer(positions, base ** (-np.arange(0, d, 2) / d) / factors)
