"""Hugging Face's rotate_half in torch, float32."""

import torch


def apply_rope_half(x, positions, base=10000.0):
    x, p = torch.tensor(x, dtype=torch.float32), torch.tensor(positions, dtype=torch.float32)
    d = x.shape[-1]
    angles = torch.outer(p, base ** (-torch.arange(0, d, 2, dtype=torch.float32) / d))
    cos, sin = torch.cat([angles, angles], dim=-1).cos(), torch.cat([angles, angles], dim=-1).sin()
    rotated = torch.cat([-x[:, d // 2:], x[:, : d // 2]], dim=-1)
    return x * cos + rotated * sin
