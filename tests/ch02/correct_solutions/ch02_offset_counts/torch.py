"""torch.arange, an int64 tensor."""

import torch


def offset_counts(n):
    return torch.arange(n, 0, -1)
