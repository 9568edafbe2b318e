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


def apply_rope_torch(x: torch.Tensor, key: tuple[bytes, int, float], layout: str,
                     out: torch.Tensor | None = None) -> torch.Tensor:
    """Rotate ``x`` (shape ``(..., seq, d)``) by the angles that ``key`` (positions, d, base) names,
    into ``out`` when given (same shape and dtype; it may be ``x`` itself)."""
    if not x.is_floating_point():
        raise TypeError(f"apply_rope: x must hold floating-point numbers, got dtype {x.dtype} (try x.float())")
    work = torch.float64 if x.dtype == torch.float64 else torch.float32
    xw = x.to(work).contiguous()
    direct = out is not None and out.dtype == work and out.is_contiguous()  # write straight into out
    if layout == "interleaved":
        rotation = _rotation(key, work, x.device)
        if direct:
            torch.mul(_as_complex(xw), rotation, out=_as_complex(out))
            return out
        result = torch.view_as_real(_as_complex(xw) * rotation).flatten(-2)
    else:
        in_place = direct and out.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
        result = _rotate_halves(xw, *_cos_sin(key, work, x.device), out if direct and not in_place else None)
    if out is None:
        return result.to(x.dtype)
    return out if result is out else out.copy_(result)


def _as_complex(x: torch.Tensor) -> torch.Tensor:
    """View a contiguous ``(..., d)`` real tensor as ``(..., d/2)`` complex numbers ``x_2j + i x_2j+1``."""
    return torch.view_as_complex(x.unflatten(-1, (-1, 2)))


@lru_cache(maxsize=32)
def _cos_sin(key, dtype: torch.dtype, device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
    cos, sin = cos_sin_table(*key)
    return torch.tensor(cos, dtype=dtype, device=device), torch.tensor(sin, dtype=dtype, device=device)


@lru_cache(maxsize=32)
def _rotation(key, dtype: torch.dtype, device: torch.device) -> torch.Tensor:
    """:math:`e^{i m\\theta_j} = \\cos(m\\theta_j) + i\\sin(m\\theta_j)` as a complex tensor ``(seq, d/2)``."""
    return torch.complex(*_cos_sin(key, dtype, device))


def _rotate_halves(x: torch.Tensor, c: torch.Tensor, s: torch.Tensor, out: torch.Tensor | None = None) -> torch.Tensor:
    """Half-layout rotation: ``(x_a, x_b) -> (x_a c - x_b s, x_a s + x_b c)``; ``out`` must not overlap ``x``."""
    xa, xb = x.chunk(2, dim=-1)
    if x.requires_grad and torch.is_grad_enabled():
        return torch.cat([xa * c - xb * s, xa * s + xb * c], dim=-1)
    out = torch.empty_like(x) if out is None else out
    oa, ob = out.chunk(2, dim=-1)
    torch.mul(xa, c, out=oa).addcmul_(xb, s, value=-1)
    torch.mul(xb, c, out=ob).addcmul_(xa, s)
    return out
