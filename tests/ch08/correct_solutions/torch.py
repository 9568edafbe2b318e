"""torch in float32, as a model runs it: interleaved pairs, Hugging Face's rotate_half, and the fixed kernel with
torch.cat for the table as Hugging Face builds it."""

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


def apply_rope_half(x, positions, base=10000.0):
    x, p = torch.tensor(x, dtype=torch.float32), torch.tensor(positions, dtype=torch.float32)
    d = x.shape[-1]
    angles = torch.outer(p, base ** (-torch.arange(0, d, 2, dtype=torch.float32) / d))
    cos, sin = torch.cat([angles, angles], dim=-1).cos(), torch.cat([angles, angles], dim=-1).sin()
    rotated = torch.cat([-x[:, d // 2:], x[:, : d // 2]], dim=-1)
    return x * cos + rotated * sin


def rope_half_fixed(x, positions, base=10000.0):
    x, p = torch.tensor(x, dtype=torch.float32), torch.tensor(positions, dtype=torch.float32)
    d = x.shape[-1]
    theta = base ** (-torch.arange(0, d, 2, dtype=torch.float32) / d)
    angles = torch.outer(p, torch.cat([theta, theta]))
    rotated = torch.cat([-x[:, d // 2:], x[:, : d // 2]], dim=-1)
    return x * angles.cos() + rotated * angles.sin()
