"""Plain Python: the length found in a loop, every angle computed with math and appended row by row (the rows
turned into an array of shape (len(positions), d/2) at the end, which keeps that shape when there are none)."""

import math

import numpy as np


def longrope_angles(d, short_factor, long_factor, positions, original_context, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got {d}")
    for name, factors in (("short_factor", short_factor), ("long_factor", long_factor)):
        if len(factors) != d // 2:
            raise ValueError(f"{name} must hold {d // 2} factors, got {len(factors)}")
    length = 0
    for p in positions:
        length = max(length, p + 1)
    factors = short_factor if length <= original_context else long_factor
    rows = [[p * math.pow(base, -2 * j / d) / factors[j] for j in range(d // 2)] for p in positions]
    return np.array(rows, dtype=float).reshape(len(positions), d // 2)
