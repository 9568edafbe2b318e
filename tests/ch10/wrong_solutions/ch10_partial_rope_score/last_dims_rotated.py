"""it rotates the last r dimensions. Hint: the first r dimensions turn."""

import numpy as np


def partial_rope_score(q, k, m, n, rotary_fraction, base=10000.0):
    d = len(q)
    r = int(d * rotary_fraction)
    theta = base ** (-np.arange(0, r, 2) / r)
    q_m, k_n = np.array(q, dtype=float), np.array(k, dtype=float)
    for x, position in ((q_m, m), (k_n, n)):
        a, b = x[d - r::2].copy(), x[d - r + 1::2].copy()
        cos, sin = np.cos(position * theta), np.sin(position * theta)
        x[d - r::2], x[d - r + 1::2] = a * cos - b * sin, a * sin + b * cos
    return float(q_m @ k_n)
