"""the query is turned by n and the key by m. Hint: the query sits at m, the key at n."""

import numpy as np


def latent_score(q_nope, q_rope, latent, k_rope, w_uk, m, n, base=10000.0):
    d_rope = len(q_rope)
    if d_rope % 2:
        raise ValueError("odd d_rope")
    theta = base ** (-np.arange(0, d_rope, 2) / d_rope)

    def turn(v, position):
        a, b = v[0::2], v[1::2]
        cos, sin = np.cos(position * theta), np.sin(position * theta)
        return np.stack([a * cos - b * sin, a * sin + b * cos], axis=-1).ravel()

    return float((w_uk.T @ q_nope) @ latent + turn(q_rope, n) @ turn(k_rope, m))
