"""The rotary part turned in Hugging Face's half layout, pairing (j, j + d_rope/2), where DeepSeek's rotary
coordinates come in neighbouring pairs."""

import numpy as np


def latent_score(q_nope, q_rope, latent, k_rope, w_uk, m, n, base=10000.0):
    d_rope = len(q_rope)
    if d_rope % 2:
        raise ValueError("odd d_rope")
    theta = base ** (-np.arange(0, d_rope, 2) / d_rope)

    def rotate_half(v, position):
        a, b = v[: d_rope // 2], v[d_rope // 2:]
        cos, sin = np.cos(position * theta), np.sin(position * theta)
        return np.concatenate([a * cos - b * sin, a * sin + b * cos])

    return float((w_uk.T @ q_nope) @ latent + rotate_half(q_rope, m) @ rotate_half(k_rope, n))
