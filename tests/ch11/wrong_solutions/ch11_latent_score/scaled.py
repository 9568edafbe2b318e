"""it divides by sqrt(d). Hint: return the unscaled score."""

import numpy as np


def latent_score(q_nope, q_rope, latent, k_rope, w_uk, m, n, base=10000.0):
    d_rope = len(q_rope)
    if d_rope % 2:
        raise ValueError("odd d_rope")
    theta = base ** (-np.arange(0, d_rope, 2) / d_rope)
    zq = (q_rope[0::2] + 1j * q_rope[1::2]) * np.exp(1j * m * theta)
    zk = (k_rope[0::2] + 1j * k_rope[1::2]) * np.exp(1j * n * theta)
    score = (w_uk.T @ q_nope) @ latent + np.sum(np.conj(zq) * zk).real
    return float(score / np.sqrt(len(q_nope) + d_rope))
