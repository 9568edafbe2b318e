"""torch in float32, as a model would run it."""

import torch


def apply_rope_interleaved(x, positions, base=10000.0):
    x, p = torch.tensor(x, dtype=torch.float32), torch.tensor(positions, dtype=torch.float32)
    d = x.shape[-1]
    angles = torch.outer(p, base ** (-torch.arange(0, d, 2, dtype=torch.float32) / d))
    c, s = torch.cos(angles), torch.sin(angles)
    out = torch.empty_like(x)
    out[:, 0::2] = x[:, 0::2] * c - x[:, 1::2] * s
    out[:, 1::2] = x[:, 0::2] * s + x[:, 1::2] * c
    return out
