"""torch periods from the inverse frequencies."""

import torch


def hand_periods(d, base=10000.0):
    return 2 * torch.pi * base ** (torch.arange(0, d, 2, dtype=torch.float64) / d)
