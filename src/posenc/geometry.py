r"""Rotations of the plane, the geometry under both the sinusoidal shift matrix and RoPE.

The counter-clockwise rotation :math:`R(\alpha)` has :math:`R(\alpha)^\top R(\beta) = R(\beta - \alpha)`, and the
block-diagonal :math:`\operatorname{diag}(R(\alpha_0), \ldots, R(\alpha_{d/2-1}))` turns pairs of dimensions:
RoPE's :math:`\Theta_m` and the sinusoidal :math:`M_k` are two such matrices. Why rotations at all: if position
maps :math:`A_m` (:math:`A_0 = I`) give scores :math:`(A_m q)^\top (A_n k)` that depend only on :math:`n - m`, then
:math:`A_m = A_1^m` with :math:`A_1` orthogonal (:func:`offset_deviation` measures how far a family is from
that), and an orthogonal matrix is rotations of planes and :math:`\pm 1` entries (:func:`rotation_form`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import validation


def rotation_2d(angle) -> np.ndarray:
    r"""The counter-clockwise rotation :math:`R(\alpha)` of the plane by ``angle`` radians, shape ``(2, 2)``.

    For a vector of angles, shape ``(2, 2, n)``: ``rotation_2d(a)[..., i]`` is :math:`R(a_i)`.

    >>> rotation_2d(np.pi / 2).round(12) + 0.0
    array([[ 0., -1.],
           [ 1.,  0.]])
    """
    angle = validation.real_array(angle, "angle", "rotation_2d")
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
    u, v = validation.plane_vector(u, "u", "plane_angle"), validation.plane_vector(v, "v", "plane_angle")
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
    angles = validation.real_array(angles, "angles", "block_diagonal_rotation", ndim=1)
    c, s = np.cos(angles), np.sin(angles)
    even = np.arange(0, 2 * len(angles), 2)
    matrix = np.zeros((2 * len(angles), 2 * len(angles)))
    matrix[even, even], matrix[even, even + 1] = c, -s
    matrix[even + 1, even], matrix[even + 1, even + 1] = s, c
    return matrix


def random_orthogonal(d: int, seed: int = 0) -> np.ndarray:
    r"""A random ``(d, d)`` orthogonal matrix, uniform over the orthogonal group (Haar measure).

    The QR factorisation :math:`G = QR` of a matrix :math:`G` of independent standard normal entries, with
    the sign of each column of :math:`Q` chosen so that :math:`R` has a positive diagonal (Mezzadri 2007).
    Its determinant is :math:`+1` or :math:`-1`, each with probability one half.

    >>> a = random_orthogonal(5, seed=1)
    >>> bool(np.allclose(a.T @ a, np.eye(5)))
    True
    """
    d = validation.integer(d, "d", "random_orthogonal", minimum=1)
    seed = validation.integer(seed, "seed", "random_orthogonal", minimum=0)
    q, r = np.linalg.qr(np.random.default_rng(seed).standard_normal((d, d)))
    return q * np.where(np.diag(r) < 0, -1.0, 1.0)


def matrix_powers(a, n_positions: int) -> np.ndarray:
    r"""The position maps :math:`A_m = A^m` for :math:`m = 0, \ldots,` ``n_positions - 1``, shape
    ``(n_positions, d, d)``; ``[0]`` is the identity.

    >>> matrix_powers([[0.0, -1.0], [1.0, 0.0]], 3)[2]
    array([[-1.,  0.],
           [ 0., -1.]])
    """
    a = validation.matrix(a, "a", "matrix_powers", square=True)
    n_positions = validation.integer(n_positions, "n_positions", "matrix_powers", minimum=1)
    powers = [np.eye(len(a))]
    for _ in range(n_positions - 1):
        powers.append(a @ powers[-1])
    return np.stack(powers)


def offset_deviation(maps, key_maps=None) -> float:
    r"""How far the scores of a family of position maps are from depending on the offset alone.

    For maps :math:`A_0, \ldots, A_{N-1}` (``maps``, shape ``(N, d, d)``) the score of a query at
    :math:`m` and a key at :math:`n` is :math:`(A_m q)^\top (A_n k) = q^\top A_m^\top A_n\, k`. It depends
    only on :math:`n - m` for every :math:`q` and :math:`k` exactly when the matrix :math:`A_m^\top A_n`
    does, so the deviation is

    .. math:: \max_{0 \le m, n < N - 1}\; \max_{i,j}\; \big|(A_m^\top A_n - A_{m+1}^\top A_{n+1})_{ij}\big| .

    When queries and keys have maps of their own, ``maps`` (:math:`B_m`) turn the queries and ``key_maps``
    (:math:`A_n`, same shape) the keys, and :math:`B_m^\top A_n` takes the place of :math:`A_m^\top A_n`.

    >>> offset_deviation(matrix_powers([[0.0, -1.0], [1.0, 0.0]], 4))  # quarter turns: a rotation
    0.0
    >>> offset_deviation(matrix_powers([[2.0]], 3))  # a stretch: 1 * 1 at (0, 0), 2 * 2 at (1, 1)
    12.0
    >>> offset_deviation(matrix_powers([[0.5]], 3), matrix_powers([[2.0]], 3))  # 2^(n-m): the offset alone
    0.0
    """
    maps = _maps(maps, "maps")
    key_maps = maps if key_maps is None else _maps(key_maps, "key_maps")
    if key_maps.shape != maps.shape:
        raise ValueError(f"offset_deviation: key_maps must have the shape of maps, {maps.shape}, got {key_maps.shape}")
    gram = np.einsum("mji,njk->mnik", maps, key_maps)  # gram[m, n] = B_m^T A_n
    return float(np.max(np.abs(gram[:-1, :-1] - gram[1:, 1:]), initial=0.0))  # 0 for a single map


def _maps(maps, name: str) -> np.ndarray:
    """``maps`` as a float array of shape ``(N, d, d)``, or the error that names what is wrong."""
    maps = validation.real_array(maps, name, "offset_deviation", ndim=3)
    if maps.shape[1] != maps.shape[2]:
        raise ValueError(f"offset_deviation: {name} must have shape (N, d, d), got shape {maps.shape}")
    return maps


class RotationForm(NamedTuple):
    r"""An orthogonal matrix as rotations of planes: :math:`P^\top A P = \operatorname{diag}(R(\varphi_1),
    \ldots, R(\varphi_r), \varepsilon_1, \ldots, \varepsilon_f)`, with ``basis`` :math:`P`, ``angles``
    :math:`\varphi_j \in (0, \pi)` and ``signs`` :math:`\varepsilon_i = \pm 1`."""

    basis: np.ndarray
    angles: np.ndarray
    signs: np.ndarray


def rotation_form(a, tol: float = 1.5e-8) -> RotationForm:
    r"""The real spectral form of an orthogonal matrix :math:`A`: an orthonormal basis in which it turns
    planes by angles :math:`\varphi_j \in (0, \pi)` and keeps or flips the remaining directions.

    With :math:`S = (A + A^\top)/2` and :math:`K = (A - A^\top)/2`, :math:`A u = S u + K u`. For an orthogonal
    :math:`A` the two commute, an eigenvector :math:`u` of :math:`S` with eigenvalue :math:`\cos\varphi`
    has :math:`\|K u\| = \sin\varphi`, and :math:`u`, :math:`w = K u/\sin\varphi` span a plane that
    :math:`A` turns by :math:`\varphi`: :math:`A u = \cos\varphi\, u + \sin\varphi\, w`. The eigenvectors
    of :math:`S` that :math:`K` hardly moves (:math:`\|K u\| = |\sin\varphi| \le` ``tol``) are kept
    (:math:`+1`) or flipped (:math:`-1`). The default ``tol`` is about the square root of float64's
    rounding: a turn by a smaller angle costs less as a sign than as a plane, whose second vector
    :math:`K u/\sin\varphi` carries the rounding divided by :math:`\sin\varphi`. The planes come first in
    the basis, pair ``(2j, 2j+1)`` as in RoPE, then the kept and
    flipped directions. The basis is orthonormal whatever ``a`` is, but only for an orthogonal ``a`` is
    :math:`P^\top A P` the block-diagonal form (a check of chapter 4).

    >>> form = rotation_form([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    >>> np.degrees(form.angles), form.signs
    (array([90.]), array([1.]))
    """
    a = validation.matrix(a, "a", "rotation_form", square=True)
    tol = validation.real(tol, "tol", "rotation_form", above=0.0)
    symmetric, skew = (a + a.T) / 2, (a - a.T) / 2
    _, vectors = np.linalg.eigh(symmetric)
    planes: list[np.ndarray] = []
    for v in vectors[:, np.linalg.norm(skew @ vectors, axis=0) > tol].T:
        u = _unit_remainder(v, planes)
        w = None if u is None else _unit_remainder(skew @ u, [*planes, u])
        if w is not None:
            planes += [u, w]
    rest = np.linalg.qr(np.column_stack([*planes, np.eye(len(a))]))[0][:, len(planes):]
    kept, within = np.linalg.eigh(rest.T @ symmetric @ rest)
    basis = np.column_stack([*planes, *(rest @ within).T]) if len(a) else np.eye(0)
    turned = basis[:, : len(planes)].T @ a @ basis[:, : len(planes)]
    angles = np.arctan2(np.diag(turned, -1)[::2], np.diag(turned)[::2])
    return RotationForm(basis, angles, np.where(kept < 0, -1.0, 1.0))


def _unit_remainder(v: np.ndarray, basis: list[np.ndarray]) -> np.ndarray | None:
    """``v`` with its components along the orthonormal ``basis`` removed (twice, for accuracy), normalised;
    ``None`` when almost nothing of it is left (it lies in the span of ``basis``)."""
    length = np.linalg.norm(v)
    for _ in range(2):
        for b in basis:
            v = v - (b @ v) * b
    rest = np.linalg.norm(v)
    return None if rest <= 1e-6 * max(length, np.finfo(float).tiny) else v / rest
