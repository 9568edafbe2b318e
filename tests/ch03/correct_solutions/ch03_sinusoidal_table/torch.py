"""A torch table."""

import torch


def sinusoidal_table(n, d, base=10000.0):
    theta = base ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
    angles = torch.outer(torch.arange(n, dtype=torch.float64), theta)
    return torch.stack([torch.sin(angles), torch.cos(angles)], dim=-1).reshape(n, d)
