r"""Rotations of the plane, the geometry under both the sinusoidal shift matrix and RoPE.

The counter-clockwise rotation by :math:`\alpha` is

.. math:: R(\alpha) = \begin{bmatrix} \cos\alpha & -\sin\alpha \\ \sin\alpha & \cos\alpha \end{bmatrix},
          \qquad R(\alpha)^\top R(\beta) = R(\beta - \alpha),

and a :math:`d`-dimensional space whose dimensions come in pairs is turned pair by pair by the
block-diagonal :math:`\operatorname{diag}(R(\alpha_0), \ldots, R(\alpha_{d/2-1}))`: RoPE's
:math:`\Theta_m` (:func:`posenc.rotary.rope_matrix`) and the sinusoidal :math:`M_k`
(:func:`posenc.sinusoidal.shift_matrix`) are two such matrices.
"""

from __future__ import annotations

import numpy as np

from . import checks


def rotation_2d(angle) -> np.ndarray:
    r"""The counter-clockwise rotation :math:`R(\alpha)` of the plane by ``angle`` radians, shape ``(2, 2)``.

    For a vector of angles, shape ``(2, 2, n)``: ``rotation_2d(a)[..., i]`` is :math:`R(a_i)`.

    >>> rotation_2d(np.pi / 2).round(12) + 0.0
    array([[ 0., -1.],
           [ 1.,  0.]])
    """
    angle = checks.real_array(angle, "angle", "rotation_2d")
    if angle.ndim > 1:
        raise ValueError(f"rotation_2d: angle must be a number or a vector of them, got shape {angle.shape}")
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s], [s, c]])


def plane_angle(u, v) -> float:
    r"""The counter-clockwise angle from the plane vector ``u`` to ``v``, in :math:`(-\pi, \pi]`:
    :math:`\operatorname{atan2}(u_x v_y - u_y v_x,\; u \cdot v)`.

    >>> round(float(np.degrees(plane_angle([1, 0], [0, 2]))), 6)
    90.0
    """
    u, v = checks.plane_vector(u, "u", "plane_angle"), checks.plane_vector(v, "v", "plane_angle")
    if not (np.any(u) and np.any(v)):
        raise ValueError("plane_angle: the zero vector has no direction")
    return float(np.arctan2(u[0] * v[1] - u[1] * v[0], u @ v))


def block_diagonal_rotation(angles) -> np.ndarray:
    r"""The ``(d, d)`` matrix, ``d = 2 len(angles)``, whose block :math:`j` (dims ``2j, 2j+1``) is the
    counter-clockwise rotation :math:`R(\alpha_j)`; zero outside the blocks.

    >>> block_diagonal_rotation([0.0, np.pi]).round(12) + 0.0
    array([[ 1.,  0.,  0.,  0.],
           [ 0.,  1.,  0.,  0.],
           [ 0.,  0., -1.,  0.],
           [ 0.,  0.,  0., -1.]])
    """
    angles = checks.real_array(angles, "angles", "block_diagonal_rotation", ndim=1)
    c, s = np.cos(angles), np.sin(angles)
    even = np.arange(0, 2 * len(angles), 2)
    matrix = np.zeros((2 * len(angles), 2 * len(angles)))
    matrix[even, even], matrix[even, even + 1] = c, -s
    matrix[even + 1, even], matrix[even + 1, even + 1] = s, c
    return matrix
