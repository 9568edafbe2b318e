"""the content part is turned as well. Hint: only the rotary part carries RoPE: the absorbed query W_UK^T q_nope
meets the latent as it is."""

import numpy as np


def turn(v, position, base):
    theta = base ** (-np.arange(0, len(v), 2) / len(v))
    a, b = v[0::2], v[1::2]
    cos, sin = np.cos(position * theta), np.sin(position * theta)
    return np.stack([a * cos - b * sin, a * sin + b * cos], axis=-1).ravel()


def latent_score(q_nope, q_rope, latent, k_rope, w_uk, m, n, base=10000.0):
    if len(q_rope) % 2:
        raise ValueError("odd d_rope")
    score = turn(q_nope, m, base) @ turn(w_uk @ latent, n, base)
    if len(q_rope):
        score += turn(q_rope, m, base) @ turn(k_rope, n, base)
    return float(score)
