"""The torch side of :func:`posenc.rotary.apply_rope` (private; imported only when a tensor is passed).

Its inputs have been checked by the caller. Interleaved pairs are rotated as complex numbers, one
multiplication per element, which reads and writes each element once. Half-layout pairs cannot be viewed as
complex numbers (the two parts of a pair sit d/2 apart): they take the row times ``[cos, cos]``, then the two
cross terms as fused multiply-adds on the halves. The tables are kept per positions, width, base, dtype and
device, like a model's rotary cache.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import torch

from .angle_tables import _cos_sin


def rotate(x: torch.Tensor, positions, base: float, layout: str, out: torch.Tensor | None = None) -> torch.Tensor:
    """Rotate ``x`` (a floating-point tensor ``(..., seq, d)``, ``d`` even) at ``positions`` (``seq`` finite real
    numbers), into ``out`` when given (a tensor of ``x``'s shape and dtype; it may be ``x`` itself)."""
    work = torch.float64 if x.dtype == torch.float64 else torch.float32  # half precision turns in float32
    xw = x.to(work).contiguous()
    rotation, cos_twice, sin = _tables(np.asarray(positions, dtype=np.float64).tobytes(), x.shape[-1], base,
                                       work, x.device)
    if layout == "interleaved":
        if out is not None and out.dtype == work and out.is_contiguous():  # straight into out: one pass
            torch.mul(_as_complex(xw), rotation, out=_as_complex(out))
            return out
        turned = torch.view_as_real(_as_complex(xw) * rotation).flatten(-2)
    else:
        turned = _rotate_halves(xw, cos_twice, sin)
    return turned.to(x.dtype) if out is None else out.copy_(turned)


def _as_complex(x: torch.Tensor) -> torch.Tensor:
    """View a contiguous ``(..., d)`` real tensor as ``(..., d/2)`` complex numbers ``x_2j + i x_2j+1``."""
    return torch.view_as_complex(x.unflatten(-1, (-1, 2)))


def _rotate_halves(x: torch.Tensor, cos_twice: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Pairs ``(x_a, x_b) = (x_j, x_j+d/2)`` turned to ``(x_a c - x_b s, x_b c + x_a s)``: three passes, one
    new tensor. ``cos_twice`` is ``[cos, cos]``, shape ``(seq, d)``; ``sin`` has shape ``(seq, d/2)``."""
    a, b = x.chunk(2, dim=-1)
    turned = x * cos_twice  # (x_a c, x_b c)
    turned[..., : a.shape[-1]].addcmul_(b, sin, value=-1)
    turned[..., a.shape[-1]:].addcmul_(a, sin)
    return turned


@lru_cache(maxsize=32)
def _tables(positions: bytes, d: int, base: float, dtype: torch.dtype, device: torch.device):
    """For float64 positions given as their bytes (hashable, unlike the array), as tensors: :math:`e^{im\\theta_j}`
    (complex, ``(seq, d/2)``) for the interleaved layout, ``[cos, cos]`` (``(seq, d)``) and ``sin``
    (``(seq, d/2)``) for the half layout."""
    cos, sin = (torch.tensor(t, dtype=dtype, device=device) for t in _cos_sin(positions, d, base))
    return torch.complex(cos, sin), torch.cat([cos, cos], dim=-1), sin
