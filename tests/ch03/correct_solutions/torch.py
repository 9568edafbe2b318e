"""torch in float32: the ladder as Hugging Face's inv_freq, and the table from it."""

import torch


def frequencies(d, base=10000.0):
    return 1.0 / (base ** (torch.arange(0, d, 2, dtype=torch.float32) / d))


def sinusoidal_table(n, d, base=10000.0):
    theta = base ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
    angles = torch.outer(torch.arange(n, dtype=torch.float64), theta)
    return torch.stack([torch.sin(angles), torch.cos(angles)], dim=-1).reshape(n, d)
