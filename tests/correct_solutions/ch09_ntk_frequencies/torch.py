"""A float32 torch ladder from the new base, as Hugging Face computes inv_freq."""

import torch


def ntk_frequencies(d, base, scale):
    new_base = base * scale ** (d / (d - 2))
    return 1.0 / (new_base ** (torch.arange(0, d, 2, dtype=torch.float32) / d))
