r"""RoPE's long-term decay (Su et al., 2021, §3.4.3): a bound on the score that falls with the distance.

Writing the query and key as :math:`d/2` complex numbers and :math:`h_i = q_i\overline{k_i}`, the score
of two tokens :math:`r` positions apart is :math:`\operatorname{Re}\sum_i h_i e^{\mathrm{i} r\theta_i}`;
summation by parts bounds its size by :math:`\max_i |h_{i+1} - h_i|\sum_j |S_j(r)|` with the partial sums
:math:`S_j(r) = \sum_{k<j} e^{\mathrm{i} r\theta_k}`, which shrink, on average, as :math:`r` grows.
"""

from __future__ import annotations

import numpy as np

from . import validation
from .angle_tables import _angles


def rope_partial_sums(distances, d: int, base: float = 10000.0) -> np.ndarray:
    r"""RoFormer's partial sums :math:`S_j(r) = \sum_{k=0}^{j-1} e^{\mathrm{i} r\theta_k}`, :math:`j = 1..d/2`.

    Complex, shape ``(len(distances), d//2)``; column ``j - 1`` holds :math:`S_j`.
    """
    distances = validation.real_vector(distances, "distances", "rope_partial_sums")
    angles = _angles(distances, *validation.ladder(d, base, "rope_partial_sums"))  # (len, d/2): r theta_k
    return np.cumsum(np.exp(1j * angles), axis=-1)


def long_term_decay_bound(distances, d: int, base: float = 10000.0) -> np.ndarray:
    r"""RoFormer's relative upper bound :math:`\frac{1}{d/2}\sum_{j=1}^{d/2} |S_j(r)|` for each distance ``r``.

    Multiplied by :math:`\tfrac d2\max_i |h_{i+1} - h_i|` it bounds the size of the score (Su et al.,
    2021, §3.4.3); RoFormer shows it falling with the distance. Shape ``(len(distances),)``.

    >>> long_term_decay_bound([0], 8)    # at distance 0, |S_j| = j: the mean of 1, 2, 3, 4
    array([2.5])
    """
    who = "long_term_decay_bound"
    distances, (d, base) = validation.real_vector(distances, "distances", who), validation.ladder(d, base, who)
    return np.abs(rope_partial_sums(distances, d, base)).mean(axis=-1)
