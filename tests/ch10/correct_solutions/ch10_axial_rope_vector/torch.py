"""float32 torch, each half rotated as in Meta's code (view as complex, multiply by a polar tensor)."""

import torch


def axial_rope_vector(x, row, col, base=10000.0):
    x = torch.as_tensor(x, dtype=torch.float32)
    half = x.shape[-1] // 2
    freqs = 1.0 / base ** (torch.arange(0, half, 2, dtype=torch.float32) / half)
    out = []
    for piece, position in ((x[:half], row), (x[half:], col)):
        turn = torch.polar(torch.ones_like(freqs), position * freqs)
        out.append(torch.view_as_real(torch.view_as_complex(piece.reshape(-1, 2).contiguous()) * turn).flatten())
    return torch.cat(out)
