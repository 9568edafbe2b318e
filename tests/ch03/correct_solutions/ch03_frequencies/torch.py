"""A torch ladder, as in Hugging Face's inv_freq."""

import torch


def frequencies(d, base=10000.0):
    return 1.0 / (base ** (torch.arange(0, d, 2, dtype=torch.float32) / d))
