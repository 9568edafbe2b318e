"""The offset form: sum_j Re(conj(q_j) k_j e^{i (n - m) theta_j}) over the turned pairs, plus the rest's dot
product, without turning either vector."""

import numpy as np


def partial_rope_score(q, k, m, n, rotary_fraction, base=10000.0):
    q, k = np.asarray(q, dtype=float), np.asarray(k, dtype=float)
    r = int(len(q) * rotary_fraction)
    if r % 2 or r == 0:
        raise ValueError(f"the rotated width must be even and at least 2, got r={r}")
    theta = base ** (-np.arange(0, r, 2) / r)
    zq, zk = q[0:r:2] + 1j * q[1:r:2], k[0:r:2] + 1j * k[1:r:2]
    return float(np.sum(np.conj(zq) * zk * np.exp(1j * (n - m) * theta)).real + q[r:] @ k[r:])
