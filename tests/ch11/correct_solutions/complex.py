"""The rotary pairs as complex numbers, scored in their offset form Re(conj(q_j) k_j e^{i(n - m) theta_j}), and the
content part as one matrix product q_nope^T W_UK latent."""

import numpy as np


def latent_score(q_nope, q_rope, latent, k_rope, w_uk, m, n, base=10000.0):
    q_rope, k_rope = np.asarray(q_rope, dtype=float), np.asarray(k_rope, dtype=float)
    d_rope = q_rope.size
    if d_rope % 2 == 1:
        raise ValueError(f"d_rope = {d_rope} is odd: RoPE turns pairs")
    theta = base ** (-np.arange(d_rope // 2) * 2.0 / max(d_rope, 1))
    zq, zk = q_rope[0::2] + 1j * q_rope[1::2], k_rope[0::2] + 1j * k_rope[1::2]
    rotary = np.sum(np.conj(zq) * zk * np.exp(1j * (n - m) * theta)).real
    return float(q_nope @ w_uk @ latent + rotary)
