"""A rotation matrix per position applied with einsum."""

import numpy as np


def apply_rope_half(x, positions, base=10000.0):
    d = x.shape[-1]
    angles = np.outer(positions, base ** (-np.arange(0, d, 2) / d))
    c, s = np.cos(angles), np.sin(angles)
    r = np.stack([np.stack([c, -s], -1), np.stack([s, c], -1)], -2)  # (seq, d/2, 2, 2)
    pairs = np.stack([x[:, : d // 2], x[:, d // 2:]], -1)          # (seq, d/2, 2)
    turned = np.einsum("sjab,sjb->sja", r, pairs)
    return np.concatenate([turned[..., 0], turned[..., 1]], axis=-1)
