"""torch tensors, and a random query: each key pair is its query pair turned by 3 theta_j, then both scaled up."""

import torch


def design_lookback(d, base):
    q = torch.randn(d, dtype=torch.float64, generator=torch.Generator().manual_seed(0))
    q = 14.0 * q / q.norm() * (d / 2) ** 0.5  # pairs of about length 14
    theta = base ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
    cos, sin = torch.cos(3 * theta), torch.sin(3 * theta)
    k = torch.empty_like(q)
    k[0::2] = cos * q[0::2] - sin * q[1::2]
    k[1::2] = sin * q[0::2] + cos * q[1::2]
    return q, k
