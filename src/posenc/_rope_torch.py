"""The torch kernel of :func:`posenc.rotary.apply_rope` (private; imported only when a tensor is passed).

Interleaved pairs are rotated as complex numbers, one multiplication per element, which reads and
writes each element once. Half-layout pairs cannot be viewed as complex numbers (the two parts of a
pair sit d/2 apart), so they take three passes: the row times ``[cos, cos]`` (one contiguous
multiplication), then the two cross terms as fused multiply-adds on the halves. Over a whole large tensor
the three passes read it from memory three times; so a large tensor is cut into slabs of about two
megabytes, and each slab takes its three passes while it is still in the cache. The slabs are handed to a
small pool of worker threads whose torch operations run single-threaded: torch's own threads would
have to meet at a barrier after every pass of every slab, which costs little on an idle machine and
many times the rotation itself on a busy one. The cos/sin tables are kept
per positions, width, base, dtype and device, like a model's rotary cache.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache

import numpy as np
import torch

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
        in_place = direct and out.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
        result = _rotate_halves(xw, tables, out if direct and not in_place else None)
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
    """Half-layout rotation: ``(x_a, x_b) -> (x_a c - x_b s, x_b c + x_a s)``; ``out`` must not overlap ``x``.

    ``out = x [c, c]``, then ``out_a -= x_b s`` and ``out_b += x_a s`` (fused multiply-adds), slab by slab."""
    if x.requires_grad and torch.is_grad_enabled():
        xa, xb = x.chunk(2, dim=-1)
        c, s = tables.cos, tables.sin
        return torch.cat([xa * c - xb * s, xa * s + xb * c], dim=-1)
    out = torch.empty_like(x) if out is None else out
    seq, d = x.shape[-2:]
    if not x.numel():  # an empty batch or sequence: nothing to turn
        return out
    rows = max(1, min(seq, SLAB_BYTES // (d * x.element_size())))
    slabs = [(lead, start) for lead in range(x.numel() // (seq * d)) for start in range(0, seq, rows)]
    workers = _workers() if len(slabs) > 1 and x.device.type == "cpu" else None
    rotate_slab = _slab_rotation(x.reshape(-1, seq, d), out.view(-1, seq, d), tables, rows)
    list((map if workers is None else workers.map)(rotate_slab, slabs))
    return out


def _slab_rotation(x: torch.Tensor, out: torch.Tensor, tables: _Tables, rows: int):
    """The three passes over one slab ``(lead, start)``: rows ``start:start + rows`` of ``x[lead]``."""
    def rotate_slab(slab: tuple[int, int]) -> None:
        lead, start = slab
        span = slice(start, start + rows)
        xs, outs = x[lead, span], out[lead, span]
        torch.mul(xs, tables.cos_twice[span], out=outs)
        (xa, xb), (oa, ob), s = xs.chunk(2, dim=-1), outs.chunk(2, dim=-1), tables.sin[span]
        oa.addcmul_(xb, s, value=-1)
        ob.addcmul_(xa, s)
    return rotate_slab


_pool: dict[int, ThreadPoolExecutor] = {}
_pool_lock = threading.Lock()
os.register_at_fork(after_in_child=_pool.clear)  # a forked child (a DataLoader worker) has none of the threads


def _workers() -> ThreadPoolExecutor | None:
    """A pool of ``torch.get_num_threads()`` threads whose torch operations run single-threaded (None for one).

    Each worker sets its own OpenMP thread count to one when it starts; the caller's thread count is then
    put back (torch keeps the count per thread once a thread has used it)."""
    threads = torch.get_num_threads()
    if threads < 2:
        return None
    with _pool_lock:
        if threads not in _pool:
            started = threading.Barrier(threads + 1)

            def single_threaded() -> None:
                torch.set_num_threads(1)
                started.wait()

            _pool[threads] = ThreadPoolExecutor(threads, thread_name_prefix="posenc-rope",
                                                initializer=single_threaded)
            for _ in range(threads):  # one task each: every worker starts (and runs the initializer) now
                _pool[threads].submit(int)
            started.wait()
            torch.set_num_threads(threads)
    return _pool[threads]
