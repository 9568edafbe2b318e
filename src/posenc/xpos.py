r"""xPos: RoPE with a per-pair exponential decay in the offset (Sun et al., 2023, "A Length-Extrapolatable
Transformer").

Pair :math:`j` gets a number :math:`\zeta_j = (2j/d + \gamma)/(1 + \gamma)` in :math:`(0, 1)`, with
:math:`\gamma = 0.4`. The query at :math:`m` is scaled by :math:`\zeta_j^{\,m/B}` and the key at :math:`n` by
:math:`\zeta_j^{-n/B}`, pair by pair, before RoPE turns them; :math:`B` (``scale_base``, 512 in the paper)
sets how slowly the scale changes. Pair :math:`j` of the score then carries the factor

.. math:: \zeta_j^{\,(m - n)/B} = \zeta_j^{-(n - m)/B},

a function of the offset alone that is below 1 for every key before the query (:math:`n < m`) and smaller
the farther the key and the faster the pair.
"""

from __future__ import annotations

import numpy as np

from . import validation
from .rotary import _rope

ROLES = ("query", "key")


def xpos_zeta(d: int, gamma: float = 0.4) -> np.ndarray:
    r""":math:`\zeta_j = (2j/d + \gamma)/(1 + \gamma)`, :math:`j = 0, \ldots, d/2 - 1`, shape ``(d//2,)``.

    >>> xpos_zeta(4)
    array([0.28571429, 0.64285714])
    """
    d = validation.even_dimension(d, "xpos_zeta")
    gamma = validation.real(gamma, "gamma", "xpos_zeta", above=0.0)
    return (np.arange(0, d, 2) / d + gamma) / (1 + gamma)


def xpos_scale(positions, d: int, *, role: str = "query", scale_base: float = 512.0, gamma: float = 0.4) -> np.ndarray:
    r"""The scale of every coordinate, shape ``(len(positions), d)``: :math:`\zeta_j^{\pm p/B}` on both
    coordinates of pair :math:`j` (interleaved), ``+`` for a query, ``-`` for a key.

    >>> xpos_scale([0.0, 512.0], 2)   # zeta_0 = 0.4/1.4 = 2/7
    array([[1.        , 1.        ],
           [0.28571429, 0.28571429]])
    """
    positions = validation.real_vector(positions, "positions", "xpos_scale")
    return _scale(positions, d, role, scale_base, gamma, "xpos_scale")


def xpos(x: np.ndarray, positions=None, *, role: str = "query", scale_base: float = 512.0,
         gamma: float = 0.4) -> np.ndarray:
    r"""xPos on queries (``role="query"``) or keys (``role="key"``): scale pair :math:`j` of the row at position
    :math:`p` by :math:`\zeta_j^{\pm p/B}` (:math:`B` = ``scale_base``), then turn it as
    :func:`posenc.rotary.apply_rope` does (base 10,000). ``x`` is a float numpy array ``(..., seq, d)``, ``d`` even.

    >>> np.round(xpos(np.ones((1, 2)), [512.0], role="key"), 4)   # the key grows by 1/zeta_0 = 3.5
    array([[-3.7672, -3.2106]])
    """
    if not isinstance(x, np.ndarray):
        raise TypeError(f"xpos: x must be a numpy array, got {type(x).__name__}")
    validation.rotatable(x, "xpos")
    positions = validation.positions(positions, x.shape[-2], "xpos")
    return _rope(x * _scale(positions, x.shape[-1], role, scale_base, gamma, "xpos"), positions)


def _scale(positions: np.ndarray, d, role, scale_base, gamma, who: str) -> np.ndarray:
    """:func:`xpos_scale` for validated ``positions``, checking the other arguments on behalf of ``who``."""
    sign = 1.0 if validation.option(role, ROLES, "role", who) == "query" else -1.0
    scale_base = validation.real(scale_base, "scale_base", who, above=0.0)
    zeta = xpos_zeta(validation.even_dimension(d, who), validation.real(gamma, "gamma", who, above=0.0))
    return np.repeat(zeta[None, :] ** (sign * positions[:, None] / scale_base), 2, axis=1)
