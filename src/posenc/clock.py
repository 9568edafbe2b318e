r"""The RoPE clock: pair :math:`j` of a query or key is a hand that turns :math:`\theta_j` radians a position.

Position :math:`m` sets hand :math:`j` to the angle :math:`m\theta_j \bmod 2\pi`. One hand returns to
where it started after its period :math:`T_j = 2\pi/\theta_j` positions, and long before that it brings
two positions close together whenever their offset :math:`\Delta` makes :math:`\Delta\theta_j` nearly a
whole number of turns (aliasing). The whole clock reads a position as the vector of its :math:`d/2`
angles, and two positions are told apart by the distance between those vectors on the torus,

.. math:: D(m, n) = \Big(\sum_{j} \delta(m\theta_j,\, n\theta_j)^2\Big)^{1/2}, \qquad
          \delta(a, b) = \min\big(|a - b| \bmod 2\pi,\; 2\pi - |a - b| \bmod 2\pi\big),

where :math:`\delta` is the distance along the circle. Because :math:`\delta(m\theta, n\theta) =
\delta(0, (n - m)\theta)`, the distance depends on the two positions only through their offset, so the
closest pair among :math:`N` positions is found by scanning the :math:`N - 1` offsets instead of the
:math:`N(N-1)/2` pairs.
"""

from __future__ import annotations

import numpy as np

from . import validation
from .sinusoidal import frequencies, wavelengths

TWO_PI = 2.0 * np.pi


def hand_periods(d: int, base: float = 10000.0) -> np.ndarray:
    r"""Positions per full turn of each hand, :math:`T_j = 2\pi/\theta_j = 2\pi\,\text{base}^{2j/d}`.

    The wavelengths of the sinusoidal table (:func:`posenc.sinusoidal.wavelengths`) read as the periods of the
    clock's hands, shape ``(d//2,)``.

    >>> np.round(hand_periods(4, base=100.0), 2)
    array([ 6.28, 62.83])
    """
    return wavelengths(*validation.ladder(d, base, "hand_periods"))


def wrapped_angles(positions, theta) -> np.ndarray:
    r"""The readings :math:`m\theta \bmod 2\pi \in [0, 2\pi)` of hands turning ``theta`` radians a position.

    ``positions`` has shape ``(n,)``; ``theta`` is a positive number (result ``(n,)``) or a vector of them
    (result ``(n, h)``: row ``m``, hand ``j``).

    >>> np.round(wrapped_angles([0, 6, 7], 1.0), 4)    # 6 radians is just short of a full turn
    array([0.    , 6.    , 0.7168])
    """
    positions = validation.real_vector(positions, "positions", "wrapped_angles")
    theta = validation.real_array(theta, "theta", "wrapped_angles")
    if theta.ndim > 1 or not np.all(theta > 0):
        raise ValueError(f"wrapped_angles: theta must be a positive number or a vector of them, got {theta}")
    return _wrap(np.multiply.outer(positions, theta))


def angular_distance(a, b) -> np.ndarray:
    r"""Distance along the circle between angles ``a`` and ``b`` (radians, broadcast), in :math:`[0, \pi]`.

    .. math:: \delta(a, b) = \min\big(r,\; 2\pi - r\big), \qquad r = |a - b| \bmod 2\pi .

    >>> round(float(angular_distance(0.1, TWO_PI - 0.1)), 12)    # either side of the zero mark
    0.2
    """
    a, b = validation.real_array(a, "a", "angular_distance"), validation.real_array(b, "b", "angular_distance")
    r = np.mod(np.abs(a - b), TWO_PI)
    return np.minimum(r, TWO_PI - r)


def clock_distance(m, n, d: int, base: float = 10000.0) -> np.ndarray:
    r""":math:`D(m, n)`, the distance between the clock readings of positions ``m`` and ``n`` (broadcast).

    Computed from the two readings themselves, hand by hand:
    :math:`D(m, n)^2 = \sum_j \delta(m\theta_j \bmod 2\pi,\; n\theta_j \bmod 2\pi)^2`.
    """
    m = validation.real_array(m, "m", "clock_distance")[..., None]
    n = validation.real_array(n, "n", "clock_distance")[..., None]
    theta = frequencies(*validation.ladder(d, base, "clock_distance"))
    gaps = angular_distance(_wrap(m * theta), _wrap(n * theta))
    return np.sqrt(np.sum(gaps**2, axis=-1))


def offset_distance(offsets, d: int, base: float = 10000.0) -> np.ndarray:
    r""":math:`D(\Delta) = \big(\sum_j \delta(\Delta\theta_j, 0)^2\big)^{1/2}`, the clock distance between any
    two positions ``offsets`` apart, shape ``(len(offsets),)``."""
    offsets = validation.real_vector(offsets, "offsets", "offset_distance")
    theta = frequencies(*validation.ladder(d, base, "offset_distance"))
    gaps = angular_distance(np.outer(offsets, theta), 0.0)  # (n_offsets, d/2)
    return np.sqrt(np.sum(gaps**2, axis=1))


def _wrap(angles: np.ndarray) -> np.ndarray:
    """Angles reduced into [0, 2 pi); np.mod can round a tiny negative angle up to exactly 2 pi."""
    wrapped = np.mod(angles, TWO_PI)
    return np.where(wrapped >= TWO_PI, 0.0, wrapped)
