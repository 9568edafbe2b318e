"""the rotated dimensions use the whole head's ladder. Hint: the ladder is built over the r rotated dimensions: θ_j =
base ** (-2j/r)."""

import numpy as np


def partial_rope_score(q, k, m, n, rotary_fraction, base=10000.0):
    d = len(q)
    r = int(d * rotary_fraction)
    theta = base ** (-np.arange(0, r, 2) / d)
    q_m, k_n = np.array(q, dtype=float), np.array(k, dtype=float)
    for x, position in ((q_m, m), (k_n, n)):
        a, b = x[0:r:2].copy(), x[1:r:2].copy()
        cos, sin = np.cos(position * theta), np.sin(position * theta)
        x[0:r:2], x[1:r:2] = a * cos - b * sin, a * sin + b * cos
    return float(q_m @ k_n)
