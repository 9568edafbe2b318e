r"""RoPE's angles :math:`m\theta_j` and the tables of their cosines and sines.

Row :math:`m` of the angle table holds :math:`m\theta_0, \ldots, m\theta_{d/2-1}` for the position
:math:`m`, with the ladder :math:`\theta_j = \text{base}^{-2j/d}` of :mod:`posenc.sinusoidal`. Rotating a
batch of queries needs :math:`\cos(m\theta_j)` and :math:`\sin(m\theta_j)` for every row; a model
computes them once and reuses them (its rotary cache), and so does :func:`posenc.rotary.apply_rope`: the
tables of the last 32 distinct ``(positions, d, base)`` are kept, read-only (for a ``(4096, 64)`` table,
computing them costs more than rotating a 67 MB tensor in place).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from . import validation
from .sinusoidal import frequencies


def rotation_angles(positions, d: int, base: float = 10000.0) -> np.ndarray:
    r"""The angles :math:`m\theta_j` in float64, shape ``(len(positions), d//2)``: row ``m``, hand ``j``.

    >>> rotation_angles([0, 2], 4, base=100.0)
    array([[0. , 0. ],
           [2. , 0.2]])
    """
    positions = validation.real_vector(positions, "positions", "rotation_angles")
    return _angles(positions, *validation.ladder(d, base, "rotation_angles"))


def _angles(positions, d: int, base: float) -> np.ndarray:
    """:func:`rotation_angles` on validated inputs (finite real positions, a positive even ``d``, ``base > 1``)."""
    return np.outer(positions, frequencies(d, base))


@lru_cache(maxsize=32)
def _cos_sin(positions: bytes, d: int, base: float) -> tuple[np.ndarray, np.ndarray]:
    r""":math:`\cos(m\theta_j)` and :math:`\sin(m\theta_j)`, float64, ``(len(positions), d/2)``, read-only; for
    validated inputs: finite float64 positions given as their bytes (hashable, unlike the array), a positive even
    ``d``, ``base > 1``."""
    angles = _angles(np.frombuffer(positions), d, base)
    cos, sin = np.cos(angles), np.sin(angles)
    cos.flags.writeable = sin.flags.writeable = False
    return cos, sin
