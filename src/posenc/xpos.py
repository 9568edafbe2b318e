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
    sign = 1.0 if validation.option(role, ROLES, "role", "xpos") == "query" else -1.0
    scale_base = validation.real(scale_base, "scale_base", "xpos", above=0.0)
    gamma = validation.real(gamma, "gamma", "xpos", above=0.0)
    zeta = (np.arange(0, x.shape[-1], 2) / x.shape[-1] + gamma) / (1 + gamma)   # (d/2,): zeta_j
    scale = np.repeat(zeta ** (sign * positions[:, None] / scale_base), 2, axis=1)   # (seq, d): pair j twice
    return _rope(x * scale, positions)
