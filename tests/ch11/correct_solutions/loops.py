"""Plain Python: the length found in a loop, every angle computed with math and appended row by row (turned into an
array of shape (len(positions), d/2), which keeps that shape when there are none); a while loop over the layers,
stopping at the first that rotates or masks."""

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


def order_blind_layers(no_rope_layers, causal):
    if len(no_rope_layers) != len(causal):
        raise ValueError("no_rope_layers and causal must describe the same layers")
    i = 0
    while i < len(causal) and no_rope_layers[i] == 0 and not causal[i]:
        i += 1
    return i
