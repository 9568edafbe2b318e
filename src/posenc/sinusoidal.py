"""The sinusoidal ladder of frequencies (Vaswani et al., 2017).

Pair :math:`j` of a :math:`d`-dimensional position vector turns at the frequency

.. math:: \\theta_j = \\text{base}^{-2j/d}, \\qquad j = 0, 1, \\ldots, d/2 - 1,

a geometric ladder from :math:`\\theta_0 = 1` radian per position down to almost :math:`1/\\text{base}`.
The position vector interleaves a sine and a cosine of each angle:
:math:`\\mathrm{PE}(p)_{2j} = \\sin(p\\theta_j)`, :math:`\\mathrm{PE}(p)_{2j+1} = \\cos(p\\theta_j)`.
"""

from __future__ import annotations

import numpy as np

from . import validation
from .geometry import block_diagonal_rotation


def frequencies(d: int, base: float = 10000.0) -> np.ndarray:
    """The ladder :math:`\\theta_j = \\text{base}^{-2j/d}` for :math:`j = 0, \\ldots, d/2 - 1`, shape ``(d//2,)``.

    >>> frequencies(4, base=100.0)
    array([1. , 0.1])
    """
    d, base = validation.ladder(d, base, "frequencies")
    return base ** (-np.arange(0, d, 2, dtype=np.float64) / d)


def wavelengths(d: int, base: float = 10000.0) -> np.ndarray:
    """Positions per full turn of each hand, :math:`\\lambda_j = 2\\pi/\\theta_j`, shape ``(d//2,)``.

    They run from :math:`2\\pi` (hand 0) to just under :math:`2\\pi\\cdot\\text{base}`.
    """
    return 2 * np.pi / frequencies(*validation.ladder(d, base, "wavelengths"))


def sinusoidal_table(n_positions: int, d: int, base: float = 10000.0) -> np.ndarray:
    """The table of position vectors, shape ``(n_positions, d)``; row ``p`` is :math:`\\mathrm{PE}(p)`.

    .. math:: \\mathrm{PE}[p, 2j] = \\sin(p\\,\\theta_j), \\qquad \\mathrm{PE}[p, 2j+1] = \\cos(p\\,\\theta_j).

    >>> sinusoidal_table(2, 2)
    array([[0.        , 1.        ],
           [0.84147098, 0.54030231]])
    """
    n_positions = validation.integer(n_positions, "n_positions", "sinusoidal_table", minimum=0)
    return position_vectors(np.arange(n_positions), *validation.ladder(d, base, "sinusoidal_table"))


def position_vectors(positions, d: int, base: float = 10000.0) -> np.ndarray:
    """:math:`\\mathrm{PE}(p)` for each ``p`` in ``positions`` (any real numbers), shape ``(len(positions), d)``."""
    positions = validation.real_vector(positions, "positions", "position_vectors")
    d, base = validation.ladder(d, base, "position_vectors")
    angles = np.outer(positions, frequencies(d, base))  # (n, d/2)
    table = np.empty((angles.shape[0], d))
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles)
    return table


def shift_matrix(k: float, d: int, base: float = 10000.0) -> np.ndarray:
    """The fixed matrix :math:`M_k` with :math:`\\mathrm{PE}(p + k) = M_k\\,\\mathrm{PE}(p)` for every ``p``.

    Block :math:`j` acts on the pair :math:`(\\sin a, \\cos a)` with :math:`a = p\\theta_j`, :math:`b = k\\theta_j`:

    .. math::
        \\begin{bmatrix} \\sin(a+b) \\\\ \\cos(a+b) \\end{bmatrix}
        = \\begin{bmatrix} \\cos b & \\sin b \\\\ -\\sin b & \\cos b \\end{bmatrix}
          \\begin{bmatrix} \\sin a \\\\ \\cos a \\end{bmatrix},

    the angle-addition formulas. :math:`M_k` depends on ``k`` but not on ``p``: its blocks are the
    rotations :math:`R(-k\\theta_j)`.
    """
    k = validation.real(k, "k", "shift_matrix")
    return block_diagonal_rotation(-k * frequencies(*validation.ladder(d, base, "shift_matrix")))


def similarity(p: float, q, d: int, base: float = 10000.0) -> np.ndarray:
    """:math:`\\mathrm{PE}(p)\\cdot\\mathrm{PE}(q) = \\sum_j \\cos(\\theta_j (p - q))`, for each ``q`` given.

    Computed from the position vectors themselves, not from the closed form.
    """
    p, q = validation.real(p, "p", "similarity"), validation.real_vector(q, "q", "similarity")
    d, base = validation.ladder(d, base, "similarity")
    return position_vectors(q, d, base) @ position_vectors([p], d, base)[0]
