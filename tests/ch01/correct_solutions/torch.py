"""torch.softmax on tensors; returns a float32 tensor."""

import torch


def attention(q, k, v):
    q, k, v = (torch.tensor(a, dtype=torch.float32) for a in (q, k, v))
    return torch.softmax(q @ k.T / q.shape[1] ** 0.5, dim=1) @ v
