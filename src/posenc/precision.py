r"""Numbers in low precision: rounding to bfloat16, float16 and float32, and RoPE's angles held in them.

A floating-point format with :math:`p` significand bits holds every integer up to :math:`2^p` exactly
and spaces its numbers :math:`2^{e-p+1}` apart between :math:`2^e` and :math:`2^{e+1}`, so a position
or an angle :math:`m\theta_j` held in bfloat16 (:math:`p = 8`) or float16 (:math:`p = 11`) is rounded
far more coarsely than in float32 (:math:`p = 24`).
"""

from __future__ import annotations

import numpy as np

from . import validation
from .sinusoidal import frequencies

FORMATS = {"bfloat16": None, "float16": np.float16, "float32": np.float32, "float64": np.float64}


def round_to(values, dtype: str) -> np.ndarray:
    """``values`` rounded to the floating-point format ``dtype`` (``"bfloat16"``, ``"float16"``,
    ``"float32"`` or ``"float64"``; round to nearest, ties to even) and returned as float64.

    numpy has no bfloat16, which is the upper half of a float32: the value is rounded to float32 and the
    lower 16 bits of the float32 are then rounded away, as torch's conversion does.

    >>> round_to([256, 257, 258], "bfloat16")
    array([256., 256., 258.])
    """
    dtype = validation.option(dtype, tuple(FORMATS), "dtype", "round_to")
    values = validation.real_array(values, "values", "round_to", finite=False)
    if dtype != "bfloat16":
        return values.astype(FORMATS[dtype]).astype(np.float64)
    bits = values.astype(np.float32).view(np.uint32).astype(np.uint64)
    tie_to_even = ((bits >> 16) & 1) + 0x7FFF  # add just under half a unit, or half a unit if that makes it even
    upper = (((bits + tie_to_even) >> 16) << 16).astype(np.uint32)
    return np.where(np.isnan(values), np.nan, upper.view(np.float32).astype(np.float64))


def angles_in_precision(positions, d: int, base: float, dtype: str) -> np.ndarray:
    r"""The angles :math:`m\theta_j` as a framework computes them when positions, frequencies and their
    product are all held in ``dtype`` (see :func:`round_to`), shape ``(len(positions), d//2)``, float64.

    The frequencies are computed in float64 and rounded to ``dtype``, the positions are rounded to
    ``dtype``, and their product is rounded once more. The product of two numbers of these formats is
    exact in float64, so the last rounding gives the correctly rounded product, as the hardware does.
    """
    who = "angles_in_precision"
    positions, (d, base) = validation.real_vector(positions, "positions", who), validation.ladder(d, base, who)
    dtype = validation.option(dtype, tuple(FORMATS), "dtype", who)
    m = round_to(positions, dtype)
    return round_to(np.outer(m, round_to(frequencies(d, base), dtype)), dtype)
