"""torch: add_positions adds tensors (its error names both lengths); offset_counts is torch.arange, an int64
tensor."""

import torch


def add_positions(x, table):
    if len(x) > len(table):
        raise ValueError(f"sequence of {len(x)} tokens, table of {len(table)}")
    return torch.from_numpy(x) + torch.from_numpy(table)[: len(x)]


def offset_counts(n_tokens):
    return torch.arange(n_tokens, 0, -1)
