"""float32 torch as the models' code: the slopes as BLOOM's build_alibi_tensor (base ** powers); each half rotated as
Meta's (view as complex, multiply by a polar tensor); the rotary dimensions split off, rotated and concatenated as
GPT-NeoX's (interleaved pairs here, where it uses rotate_half), a 0-d tensor returned."""

import math

import torch


def alibi_slopes(n_heads):
    closest = 2 ** math.floor(math.log2(n_heads))
    base = torch.tensor(2 ** (-(2 ** -(math.log2(closest) - 3))), dtype=torch.float32)
    slopes = torch.pow(base, torch.arange(1, 1 + closest, dtype=torch.int32))
    if closest != n_heads:
        extra_base = torch.tensor(2 ** (-(2 ** -(math.log2(2 * closest) - 3))), dtype=torch.float32)
        remaining = min(closest, n_heads - closest)
        extra_powers = torch.arange(1, 1 + 2 * remaining, 2, dtype=torch.int32)
        slopes = torch.cat([slopes, torch.pow(extra_base, extra_powers)], dim=0)
    return slopes


def axial_rope_vector(x, row, col, base=10000.0):
    x = torch.as_tensor(x, dtype=torch.float32)
    half = x.shape[-1] // 2
    freqs = 1.0 / base ** (torch.arange(0, half, 2, dtype=torch.float32) / half)
    out = []
    for piece, position in ((x[:half], row), (x[half:], col)):
        turn = torch.polar(torch.ones_like(freqs), position * freqs)
        out.append(torch.view_as_real(torch.view_as_complex(piece.reshape(-1, 2).contiguous()) * turn).flatten())
    return torch.cat(out)


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
