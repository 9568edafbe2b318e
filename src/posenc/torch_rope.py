"""The torch kernel of :func:`posenc.rotary.apply_rope` (imported only when a tensor is passed).

Interleaved pairs are rotated as complex numbers, one multiplication per element, which reads and
writes each element once. Half-layout pairs are rotated into a preallocated output with four fused
multiply-adds over contiguous halves (or out of place when autograd needs the graph). The rotation
tables are cached per positions, width, base, dtype and device, like a model's rotary cache.
"""

from __future__ import annotations

from functools import lru_cache

import torch

from .rotary import cos_sin_table


def apply_rope_torch(x: torch.Tensor, key: tuple[bytes, int, float], layout: str) -> torch.Tensor:
    """Rotate ``x`` (shape ``(..., seq, d)``) by the angles that ``key`` (positions, d, base) names."""
    if not x.is_floating_point():
        raise TypeError(f"apply_rope: x must hold floating-point numbers, got dtype {x.dtype} (try x.float())")
    work = torch.float64 if x.dtype == torch.float64 else torch.float32
    xw = x.to(work)
    if layout == "interleaved":
        z = torch.view_as_complex(xw.contiguous().unflatten(-1, (-1, 2)))  # (..., seq, d/2) complex
        out = torch.view_as_real(z * _rotation(key, work, x.device)).flatten(-2)
    else:
        out = _rotate_halves(xw, *_cos_sin(key, work, x.device))
    return out.to(x.dtype)


@lru_cache(maxsize=32)
def _cos_sin(key, dtype: torch.dtype, device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
    cos, sin = cos_sin_table(*key)
    return torch.tensor(cos, dtype=dtype, device=device), torch.tensor(sin, dtype=dtype, device=device)


@lru_cache(maxsize=32)
def _rotation(key, dtype: torch.dtype, device: torch.device) -> torch.Tensor:
    """:math:`e^{i m\\theta_j} = \\cos(m\\theta_j) + i\\sin(m\\theta_j)` as a complex tensor ``(seq, d/2)``."""
    return torch.complex(*_cos_sin(key, dtype, device))


def _rotate_halves(x: torch.Tensor, c: torch.Tensor, s: torch.Tensor) -> torch.Tensor:
    xa, xb = x.chunk(2, dim=-1)
    if x.requires_grad and torch.is_grad_enabled():
        return torch.cat([xa * c - xb * s, xa * s + xb * c], dim=-1)
    out = torch.empty_like(x)
    oa, ob = out.chunk(2, dim=-1)
    torch.mul(xa, c, out=oa).addcmul_(xb, s, value=-1)
    torch.mul(xb, c, out=ob).addcmul_(xa, s)
    return out
