"""the dimensions that pass through are left out of the score. Hint: they still add their plain dot product."""

import numpy as np


def partial_rope_score(q, k, m, n, rotary_fraction, base=10000.0):
    r = int(len(q) * rotary_fraction)
    theta = base ** (-np.arange(0, r, 2) / r)
    q_m, k_n = np.array(q, dtype=float)[:r], np.array(k, dtype=float)[:r]
    for x, position in ((q_m, m), (k_n, n)):
        a, b = x[0::2].copy(), x[1::2].copy()
        cos, sin = np.cos(position * theta), np.sin(position * theta)
        x[0::2], x[1::2] = a * cos - b * sin, a * sin + b * cos
    return float(q_m @ k_n)
