"""The fixed kernel in torch, float32, with torch.cat for the table as Hugging Face builds it."""

import torch


def rope_half_fixed(x, positions, base=10000.0):
    x, p = torch.tensor(x, dtype=torch.float32), torch.tensor(positions, dtype=torch.float32)
    d = x.shape[-1]
    theta = base ** (-torch.arange(0, d, 2, dtype=torch.float32) / d)
    angles = torch.outer(p, torch.cat([theta, theta]))
    rotated = torch.cat([-x[:, d // 2:], x[:, : d // 2]], dim=-1)
    return x * angles.cos() + rotated * angles.sin()
