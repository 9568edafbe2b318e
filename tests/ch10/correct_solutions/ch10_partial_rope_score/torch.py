"""float32 torch, as GPT-NeoX's code: split off the rotary dimensions, rotate, concatenate, and return a 0-d
tensor (interleaved pairs here, where GPT-NeoX uses rotate_half)."""

import torch


def partial_rope_score(q, k, m, n, rotary_fraction, base=10000.0):
    q, k = torch.as_tensor(q, dtype=torch.float32), torch.as_tensor(k, dtype=torch.float32)
    rotary_ndims = int(q.shape[-1] * rotary_fraction)
    if rotary_ndims < 2 or rotary_ndims % 2:
        raise ValueError(f"rotary_ndims = {rotary_ndims} cannot be split into pairs")
    inv_freq = 1.0 / base ** (torch.arange(0, rotary_ndims, 2, dtype=torch.float32) / rotary_ndims)

    def turn(x, position):
        x_rot, x_pass = x[:rotary_ndims], x[rotary_ndims:]
        angle = position * inv_freq
        a, b = x_rot[0::2], x_rot[1::2]
        turned = torch.stack([a * angle.cos() - b * angle.sin(), a * angle.sin() + b * angle.cos()], dim=-1)
        return torch.cat([turned.flatten(), x_pass])

    return turn(q, m) @ turn(k, n)
