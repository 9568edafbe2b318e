"""A float32 torch ladder from the new base, as Hugging Face computes inv_freq; d = 2 refused first."""

import torch


def ntk_aware(d, factor, base=10000.0):
    if d < 4:
        raise ValueError(f"ntk_aware: the exponent d/(d-2) needs d >= 4, got d={d}")
    new_base = base * factor ** (d / (d - 2))
    return 1.0 / (new_base ** (torch.arange(0, d, 2, dtype=torch.float32) / d))
