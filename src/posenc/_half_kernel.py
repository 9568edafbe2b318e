"""The half layout in one pass: the compiled kernel ``posenc._halves`` (``src/posenc/_halves.c``), if it was built.

A pair of the half layout is :math:`(x_j, x_{j+d/2})`; its two parts sit half a row apart, so numpy and torch
cannot multiply it as one complex number and need three or more passes over the data. The kernel reads each
element once and writes it once, like a copy:

.. math:: x'_j = x_j\\cos m\\theta_j - x_{j+d/2}\\sin m\\theta_j, \\qquad
          x'_{j+d/2} = x_{j+d/2}\\cos m\\theta_j + x_j\\sin m\\theta_j,

each product rounded before the sum, exactly as numpy evaluates the same formula. The extension is optional
(``setup.py``): without a C compiler the package installs without it, :data:`COMPILED` is false, and the
callers use their numpy or torch passes instead.
"""

from __future__ import annotations

import threading
from itertools import pairwise

import numpy as np

try:
    from ._halves import turn_halves
except ImportError:  # installed where no C compiler was found
    turn_halves = None

COMPILED = turn_halves is not None
SPAN_BYTES = 4 << 20  # a helper thread only for 4 MiB of rows or more: starting and joining one took 0.13 ms
                      # here (a loaded machine), turning 4 MiB takes several times that


def rotate_halves(x: np.ndarray, cos: np.ndarray, sin: np.ndarray, out: np.ndarray, threads: int = 1) -> np.ndarray:
    """Turn ``x`` (C-contiguous, ``(..., seq, d)``, float32 or float64) into ``out`` (the same, or ``x`` itself)
    at the tables ``cos`` and ``sin`` (``(seq, d/2)``, x's dtype), on up to ``threads`` threads; returns ``out``.

    The rows are cut into contiguous spans, one per thread; each span starts at its own table row."""
    if not (x.flags.c_contiguous and out.flags.c_contiguous) or x.shape != out.shape:
        raise ValueError(f"rotate_halves: x and out must be C-contiguous arrays of one shape, got {x.shape} and "
                         f"{out.shape}")  # a reshaped copy of out would take the result and be thrown away
    if not x.size:  # an empty batch or sequence: nothing to turn
        return out
    seq, d = x.shape[-2:]
    rows, row_out = x.reshape(-1, d), out.reshape(-1, d)
    spans = max(1, min(threads, rows.nbytes // SPAN_BYTES))
    bounds = [len(rows) * i // spans for i in range(spans + 1)]
    work = [(rows[a:b], cos, sin, row_out[a:b], a % seq) for a, b in pairwise(bounds) if b > a]
    turn_halves(rows[:0], cos, sin, row_out[:0], 0)  # checks shapes and dtypes here, where errors are seen
    helpers = [threading.Thread(target=turn_halves, args=span) for span in work[1:]]
    for helper in helpers:
        helper.start()
    turn_halves(*work[0])
    for helper in helpers:
        helper.join()
    return out
