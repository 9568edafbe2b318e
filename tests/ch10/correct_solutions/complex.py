"""Complex numbers: each half of the axial vector as d/4 of them times e^{i p theta_j}; the partial score in its
offset form, sum_j Re(conj(q_j) k_j e^{i (n - m) theta_j}) over the turned pairs plus the rest's dot product, turning
neither vector."""

import numpy as np


def axial_rope_vector(x, row, col, base=10000.0):
    x = np.asarray(x, dtype=float)
    half = len(x) // 2
    theta = base ** (-np.arange(0, half, 2) / half)
    parts = []
    for piece, position in ((x[:half], row), (x[half:], col)):
        z = (piece[0::2] + 1j * piece[1::2]) * np.exp(1j * position * theta)
        parts.append(np.stack([z.real, z.imag], axis=-1).ravel())
    return np.concatenate(parts)


def partial_rope_score(q, k, m, n, rotary_fraction, base=10000.0):
    q, k = np.asarray(q, dtype=float), np.asarray(k, dtype=float)
    r = int(len(q) * rotary_fraction)
    if r % 2 or r == 0:
        raise ValueError(f"the rotated width must be even and at least 2, got r={r}")
    theta = base ** (-np.arange(0, r, 2) / r)
    zq, zk = q[0:r:2] + 1j * q[1:r:2], k[0:r:2] + 1j * k[1:r:2]
    return float(np.sum(np.conj(zq) * zk * np.exp(1j * (n - m) * theta)).real + q[r:] @ k[r:])
