"""torch.block_diag, float32."""

import torch


def clock_shift(k, d, base=10000.0):
    theta = base ** (-torch.arange(0, d, 2, dtype=torch.float32) / d)
    c, s = torch.cos(k * theta), torch.sin(k * theta)
    blocks = [torch.stack([torch.stack([c[j], -s[j]]), torch.stack([s[j], c[j]])]) for j in range(d // 2)]
    return torch.block_diag(*blocks)
