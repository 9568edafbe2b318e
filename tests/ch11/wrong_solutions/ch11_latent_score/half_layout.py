"""the rotary part pairs the coordinates (j, j + d_rope/2). Hint: the pairs are neighbours, (2j, 2j+1), as in
DeepSeek's checkpoints."""

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
