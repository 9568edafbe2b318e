"""The torch kernel of :func:`posenc.rotary.apply_rope` (private; imported only when a tensor is passed).

Interleaved pairs are rotated as complex numbers, one multiplication per element, which reads and
writes each element once. Half-layout pairs cannot be viewed as complex numbers (the two parts of a
pair sit d/2 apart). On the CPU they go to the compiled one-pass kernel of :mod:`posenc._half_kernel`, on
torch's number of threads. Where it was not built, or off the CPU, they take three torch passes: the row
times ``[cos, cos]`` (one contiguous multiplication), then the two cross terms as fused multiply-adds on
the halves. Over a whole large tensor the three passes would read it from memory three times; so a large
tensor is cut into slabs of about two megabytes (a long sequence into spans of rows, many short ones
grouped), and each slab takes its three passes while it is still in the cache. Each pass is an ordinary
torch operation on torch's own threads (a pool of worker threads for the slabs was tried: it was no
faster, and it made the caller's later torch work slower for as long as the process lived). The cos/sin
tables are kept per positions, width, base, dtype and device, like a model's rotary cache.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import torch

from . import _half_kernel
from .angle_tables import cos_sin_table


def rotate(x: torch.Tensor, positions: np.ndarray, base: float, layout: str,
           out: torch.Tensor | None = None) -> torch.Tensor:
    """Rotate ``x`` (shape ``(..., seq, d)``) at the float64 ``positions`` (shape ``(seq,)``), into ``out``
    when given (same shape and dtype as ``x``; it may be ``x`` itself)."""
    work = torch.float64 if x.dtype == torch.float64 else torch.float32
    xw = x.to(work).contiguous()
    direct = out is not None and out.dtype == work and out.is_contiguous()  # write straight into out
    tables = _tables(positions.tobytes(), x.shape[-1], base, work, x.device)
    if layout == "interleaved":
        if direct:
            torch.mul(_as_complex(xw), tables.rotation, out=_as_complex(out))
            return out
        result = torch.view_as_real(_as_complex(xw) * tables.rotation).flatten(-2)
    else:
        overlaps = direct and out.untyped_storage().data_ptr() == xw.untyped_storage().data_ptr()
        writable = direct and (not overlaps or out.data_ptr() == xw.data_ptr())  # apart from x, or x itself
        result = _rotate_halves(xw, tables, out if writable else None)
    if out is None:
        return result.to(x.dtype)
    return out if result is out else out.copy_(result)


def _as_complex(x: torch.Tensor) -> torch.Tensor:
    """View a contiguous ``(..., d)`` real tensor as ``(..., d/2)`` complex numbers ``x_2j + i x_2j+1``."""
    return torch.view_as_complex(x.unflatten(-1, (-1, 2)))


class _Tables:
    """cos and sin, shape ``(seq, d/2)``, and, made on first use, :math:`e^{im\\theta_j}` (complex,
    ``(seq, d/2)``) and ``[cos, cos]`` (``(seq, d)``), as tensors."""

    def __init__(self, cos: np.ndarray, sin: np.ndarray, dtype: torch.dtype, device: torch.device):
        self.cos = torch.tensor(cos, dtype=dtype, device=device)
        self.sin = torch.tensor(sin, dtype=dtype, device=device)
        self._rotation = self._cos_twice = None

    @property
    def rotation(self) -> torch.Tensor:
        if self._rotation is None:
            self._rotation = torch.complex(self.cos, self.sin)
        return self._rotation

    @property
    def cos_twice(self) -> torch.Tensor:
        if self._cos_twice is None:
            self._cos_twice = torch.cat([self.cos, self.cos], dim=-1)
        return self._cos_twice


@lru_cache(maxsize=32)
def _tables(positions: bytes, d: int, base: float, dtype: torch.dtype, device: torch.device) -> _Tables:
    """The tensors for float64 positions given as their bytes (hashable, unlike the array)."""
    return _Tables(*cos_sin_table(np.frombuffer(positions, dtype=np.float64), d, base), dtype, device)


SLAB_BYTES = 2 << 20  # a slab and its result stay in the cache (32 MiB of L3 here; 1 MiB slabs measured slower)


def _rotate_halves(x: torch.Tensor, tables: _Tables, out: torch.Tensor | None = None) -> torch.Tensor:
    """Half-layout rotation: ``(x_a, x_b) -> (x_a c - x_b s, x_b c + x_a s)``; ``out`` may be ``x`` itself but
    must not otherwise overlap it.

    On the CPU, the compiled kernel of :mod:`posenc._half_kernel` in one pass, on torch's number of threads;
    elsewhere (or where it was not built), torch's passes slab by slab (:func:`_rotate_in_slabs`)."""
    if x.requires_grad and torch.is_grad_enabled():
        xa, xb = x.chunk(2, dim=-1)
        c, s = tables.cos, tables.sin
        return torch.cat([xa * c - xb * s, xa * s + xb * c], dim=-1)
    out = torch.empty_like(x) if out is None else out
    if _half_kernel.COMPILED and x.device.type == "cpu":
        _half_kernel.rotate_halves(x.detach().numpy(), tables.cos.numpy(), tables.sin.numpy(), out.detach().numpy(),
                                   torch.get_num_threads())
        return out
    if out.data_ptr() == x.data_ptr():  # in place: the slabs' first pass would overwrite what the others read
        return out.copy_(_rotate_in_slabs(x, tables, torch.empty_like(x)))
    return _rotate_in_slabs(x, tables, out)


def _rotate_in_slabs(x: torch.Tensor, tables: _Tables, out: torch.Tensor) -> torch.Tensor:
    """Torch's passes into ``out`` (which must not overlap ``x``): ``out = x [c, c]``, then ``out_a -= x_b s`` and
    ``out_b += x_a s`` (fused multiply-adds), slab by slab."""
    seq, d = x.shape[-2:]
    if not x.numel():  # an empty batch or sequence: nothing to turn
        return out
    xs, outs = x.reshape(-1, seq, d), out.view(-1, seq, d)
    (xa, xb), (oa, ob) = xs.chunk(2, dim=-1), outs.chunk(2, dim=-1)
    rows = max(1, min(seq, SLAB_BYTES // (d * x.element_size())))  # a long sequence is cut into spans
    group = max(1, min(xs.shape[0], SLAB_BYTES // (rows * d * x.element_size())))  # short ones are grouped
    for start in range(0, seq, rows):  # a slab: rows start:start + rows of `group` leading indices
        span = slice(start, start + rows)
        cos_twice, sin = tables.cos_twice[span], tables.sin[span]
        for first in range(0, xs.shape[0], group):
            leads = slice(first, first + group)
            torch.mul(xs[leads, span], cos_twice, out=outs[leads, span])
            oa[leads, span].addcmul_(xb[leads, span], sin, value=-1)
            ob[leads, span].addcmul_(xa[leads, span], sin)
    return out
