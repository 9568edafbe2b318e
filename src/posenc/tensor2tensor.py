r"""The sinusoidal table as tensor2tensor, the first public code of the transformer, builds it.

``get_timing_signal_1d`` concatenates all the sines and then all the cosines,

.. math:: \mathrm{TS}(p) = \big(\sin p\theta'_0, \ldots, \sin p\theta'_{d/2-1},\;
          \cos p\theta'_0, \ldots, \cos p\theta'_{d/2-1}\big),

so coordinates :math:`j` and :math:`j + d/2` hold the sine and the cosine of one angle: the half layout of
chapter 8, where the paper interleaves them. Its ladder also differs slightly from the paper's
:math:`\text{base}^{-2j/d}`: the exponents are spread evenly from 0 to exactly 1,
:math:`\theta'_j = \text{base}^{-j/(d/2 - 1)}`, so the slowest hand turns at exactly :math:`1/\text{base}`.
"""

from __future__ import annotations

import math

import numpy as np

from . import validation


def timing_signal(n_positions: int, d: int, max_timescale: float = 10000.0) -> np.ndarray:
    r"""The table ``get_timing_signal_1d`` returns (minimum timescale 1), shape ``(n_positions, d)``:
    row :math:`p` is :math:`(\sin p\theta'_j)_j` followed by :math:`(\cos p\theta'_j)_j`.

    >>> timing_signal(2, 2)
    array([[0.        , 1.        ],
           [0.84147098, 0.54030231]])
    """
    who = "timing_signal"
    n_positions = validation.integer(n_positions, "n_positions", who, minimum=0)
    d = validation.even_dimension(d, who)
    max_timescale = validation.real(max_timescale, "max_timescale", who, above=1.0)
    increment = math.log(max_timescale) / max(d // 2 - 1, 1)   # theta'_j = exp(-j * increment)
    angles = np.outer(np.arange(n_positions, dtype=np.float64), np.exp(-increment * np.arange(d // 2)))
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=1)
