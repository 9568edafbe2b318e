r"""ALiBi: attention with linear biases (Press, Smith and Lewis, 2022, arXiv:2108.12409).

ALiBi adds no position vectors and rotates nothing. Each head :math:`h` adds a penalty proportional to
the distance between query and key to the score before the softmax,

.. math:: S_{m,n} = \frac{q_m\cdot k_n}{\sqrt d} - \mu_h\,|m - n| ,

with a fixed slope :math:`\mu_h` per head taken from a geometric sequence. The bias depends on
:math:`m` and :math:`n` only through :math:`n - m`, so the bias matrix is Toeplitz.
"""

from __future__ import annotations

import math

import numpy as np

from . import validation
from .relative import offsets


def alibi_slopes(n_heads: int) -> np.ndarray:
    r"""The head slopes :math:`\mu_k = 2^{-8k/n}`, :math:`k = 1, \ldots, n`, shape ``(n_heads,)``.

    For 8 heads this is :math:`1/2, 1/4, \ldots, 1/256`. When ``n_heads`` is not a power of two, the
    paper's code takes the slopes of the largest power of two :math:`c < n` and fills the remaining
    :math:`n - c` heads with the first :math:`n - c` odd-numbered slopes of :math:`2c` heads
    (:math:`k = 1, 3, 5, \ldots`): the first lies above the largest slope of the first set, the rest between them.

    >>> alibi_slopes(4)
    array([0.25      , 0.0625    , 0.015625  , 0.00390625])
    """
    n_heads = validation.integer(n_heads, "n_heads", "alibi_slopes", minimum=1)
    closest = 2 ** int(math.floor(math.log2(n_heads)))
    slopes = 2.0 ** (-8.0 * np.arange(1, closest + 1) / closest)
    if closest == n_heads:
        return slopes
    return np.concatenate([slopes, alibi_slopes(2 * closest)[0::2][: n_heads - closest]])


def alibi_bias(n_positions: int, slopes) -> np.ndarray:
    r"""The bias :math:`B_{h,m,n} = -\mu_h\,|m - n|`, shape ``(len(slopes), n_positions, n_positions)``.

    In a causal model only :math:`n \le m` is used, where the bias is :math:`-\mu_h (m - n)` as in the
    paper; the symmetric form fills the other triangle the same way, so each head's matrix is Toeplitz.

    >>> alibi_bias(3, [0.5])[0]
    array([[ 0. , -0.5, -1. ],
           [-0.5,  0. , -0.5],
           [-1. , -0.5,  0. ]])
    """
    n_positions = validation.integer(n_positions, "n_positions", "alibi_bias", minimum=1)
    slopes = validation.real_vector(slopes, "slopes", "alibi_bias")
    return slopes[:, None, None] * -np.abs(offsets(n_positions))  # -mu_h |m - n|
