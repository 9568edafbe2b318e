"""torch: periods from the inverse frequencies; torch.block_diag in float32."""

import torch


def hand_periods(d, base=10000.0):
    return 2 * torch.pi * base ** (torch.arange(0, d, 2, dtype=torch.float64) / d)


def clock_shift(k, d, base=10000.0):
    theta = base ** (-torch.arange(0, d, 2, dtype=torch.float32) / d)
    c, s = torch.cos(k * theta), torch.sin(k * theta)
    blocks = [torch.stack([torch.stack([c[j], -s[j]]), torch.stack([s[j], c[j]])]) for j in range(d // 2)]
    return torch.block_diag(*blocks)
