"""float32 torch, as transformers' longrope initialisation writes it: inv_freq = 1 / (factors * base ** (2j/d)),
chosen by the largest position + 1, then the outer product with the positions."""

import torch


def longrope_angles(d, short_factor, long_factor, positions, original_context, base=10000.0):
    if d % 2 or len(short_factor) != d // 2 or len(long_factor) != d // 2:
        raise ValueError(f"longrope: d = {d} must be even and each factor list must hold d/2 numbers")
    positions = torch.as_tensor(positions, dtype=torch.float32)
    if positions.numel() == 0:
        return torch.zeros(0, d // 2)
    seq_len = int(positions.max()) + 1
    ext_factors = torch.tensor(long_factor if seq_len > original_context else short_factor, dtype=torch.float32)
    inv_freq = 1.0 / (ext_factors * base ** (torch.arange(0, d, 2, dtype=torch.float32) / d))
    return torch.outer(positions, inv_freq)
