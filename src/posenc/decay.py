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


def long_term_decay_octaves(d: int, base: float = 10000.0, octaves: int = 20) -> tuple[np.ndarray, np.ndarray]:
    r"""The mean of :func:`long_term_decay_bound` over each octave of distances :math:`[2^k, 2^{k+1})`.

    Each octave is sampled at 256 evenly spaced integer distances. Returns the octave edges,
    shape ``(octaves + 1,)``, and the means, shape ``(octaves,)``: a smooth summary of a curve that
    oscillates too fast to read at large distances.
    """
    who = "long_term_decay_octaves"
    d, base = validation.ladder(d, base, who)
    octaves = validation.integer(octaves, "octaves", who, 1)
    edges = 2.0 ** np.arange(octaves + 1)
    means = [long_term_decay_bound(np.unique(np.floor(np.linspace(lo, hi, 256, endpoint=False))), d, base).mean()
             for lo, hi in zip(edges[:-1], edges[1:], strict=True)]
    return edges, np.array(means)


def random_walk_level(d: int) -> float:
    r""":math:`\frac{1}{d/2}\sum_{j=1}^{d/2} \tfrac12\sqrt{\pi j}`: about the value of the relative bound
    when every angle :math:`r\theta_k` is effectively random, since a sum of :math:`j` unit complex numbers
    with independent uniform phases has mean length close to :math:`\tfrac12\sqrt{\pi j}`."""
    j = np.arange(1, validation.even_dimension(d, "random_walk_level") // 2 + 1)
    return float(np.mean(np.sqrt(np.pi * j) / 2))
