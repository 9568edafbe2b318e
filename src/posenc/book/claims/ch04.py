"""The claims checked in chapter 4, *Rotation, not addition*

Rotations compose by difference, RoPE turns each pair, its scores see only the offset, and offset-only scores
force the powers of one orthogonal matrix when queries and keys share their maps and position 0 changes nothing.
"""

from __future__ import annotations

import numpy as np

from posenc import sinusoidal
from posenc.geometry import block_diagonal_rotation, matrix_powers, offset_deviation, rotation_2d, rotation_form
from posenc.rotary import apply_rope, rope_matrix

from .result import ClaimResult, angle_tolerance, claim_result, plane_rotations


def rotation_difference(m, n, theta) -> ClaimResult:
    """:math:`R_m^\\top R_n = R_{n-m}` for 2x2 rotations by :math:`m\\theta`, :math:`n\\theta`; ``m``, ``n`` and
    ``theta`` may be numbers or arrays of cases (broadcast together), all four entries compared."""
    m, n, theta = np.broadcast_arrays(*(np.atleast_1d(np.asarray(v, dtype=np.float64)) for v in (m, n, theta)))
    lhs = np.swapaxes(plane_rotations(m * theta), -1, -2) @ plane_rotations(n * theta)
    return claim_result("R_m^T R_n = R_(n-m)", lhs - plane_rotations((n - m) * theta),
                        angle_tolerance(np.max(np.abs(m * theta)), np.max(np.abs(n * theta))))


def rotation_difference_sample(n_samples: int = 10_000, max_position: int = 4096, theta_max: float = np.pi,
                               seed: int = 0) -> ClaimResult:
    """:func:`rotation_difference` for random integer positions :math:`|m|, |n| \\le` ``max_position`` and
    random angles :math:`\\theta` drawn uniformly from :math:`[0,` ``theta_max`` :math:`)`."""
    rng = np.random.default_rng(seed)
    m, n = rng.integers(-max_position, max_position + 1, size=(2, n_samples))
    return rotation_difference(m, n, rng.uniform(0.0, theta_max, n_samples))


def rope_turns_each_pair(m: float, d: int = 64, base: float = 10000.0, seed: int = 0) -> ClaimResult:
    r"""``apply_rope`` at position :math:`m` turns every pair :math:`(x_{2j}, x_{2j+1})` of a random vector by
    the plane rotation :math:`R(m\theta_j)`, each pair on its own (the right-hand side applies
    :func:`posenc.geometry.rotation_2d` pair by pair, without the kernel)."""
    x = np.random.default_rng(seed).standard_normal(d)
    turned = apply_rope(x[None, :], [m], base=base)[0]
    by_pair = [rotation_2d(m * theta) @ x[2 * j : 2 * j + 2] for j, theta in enumerate(sinusoidal.frequencies(d, base))]
    return claim_result(f"apply_rope at m={m:g} turns pair j by R(m theta_j), d={d}", turned - np.concatenate(by_pair),
                        angle_tolerance(m))


def rope_scores_depend_on_offset(m: float, n: float, shift: float, d: int = 64, seed: int = 0) -> ClaimResult:
    """The RoPE score of ``q`` at ``m`` and ``k`` at ``n`` equals the score at ``m + shift``, ``n + shift``,
    and equals :math:`q^\\top\\Theta_{n-m}k/\\sqrt d`."""
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((1, d)), rng.standard_normal((1, d))

    def score(a: float, b: float) -> float:
        return float(apply_rope(q, [a])[0] @ apply_rope(k, [b])[0]) / np.sqrt(d)

    relative = float(q[0] @ rope_matrix(n - m, d) @ k[0]) / np.sqrt(d)
    return claim_result("score(m, n) = score(m + k, n + k) = q^T Theta_(n-m) k / sqrt(d)",
                        [score(m, n) - score(m + shift, n + shift), score(m, n) - relative],
                        np.sqrt(d) * angle_tolerance(m, n, shift))


def position_maps_offset_only(maps, key_maps=None) -> ClaimResult:
    """The scores of the position maps ``maps`` (shape ``(N, d, d)``, ``maps[m]`` = :math:`A_m`) depend only
    on :math:`n - m` for every query and key: :math:`A_m^\\top A_n = A_{m+1}^\\top A_{n+1}` for all
    :math:`m, n < N - 1` (:func:`posenc.geometry.offset_deviation`). With ``key_maps``, ``maps`` are the
    query maps :math:`B_m` and the products are :math:`B_m^\\top A_n`. Tolerance: float64 round-off of the
    :math:`N` products that make the maps, relative to their largest entry."""
    maps = np.asarray(maps, dtype=np.float64)
    keys = maps if key_maps is None else np.asarray(key_maps, dtype=np.float64)
    scale = max(1.0, float(np.max(np.abs(maps), initial=0.0))) * max(1.0, float(np.max(np.abs(keys), initial=0.0)))
    products = "A_m^T A_n" if key_maps is None else "B_m^T A_n"
    return ClaimResult(f"{len(maps)} position maps: {products} depends only on n - m",
                       offset_deviation(maps, key_maps), 1e-15 * len(maps) * maps.shape[-1] * scale)


def powers_of_one_orthogonal(maps) -> ClaimResult:
    """The position maps ``maps`` (shape ``(N, d, d)``, :math:`N \\ge 2`) are the powers of one orthogonal
    matrix: the largest entry of :math:`A_1^\\top A_1 - I` and of :math:`A_m - A_1^m` for every :math:`m`
    (:math:`A_0 - I` among them). Tolerance as in :func:`position_maps_offset_only`."""
    maps = np.asarray(maps, dtype=np.float64)
    if maps.ndim != 3 or len(maps) < 2:
        raise ValueError(f"powers_of_one_orthogonal: maps must have shape (N, d, d) with N >= 2, got {maps.shape}")
    a_1 = maps[1]
    scale = max(1.0, float(np.max(np.abs(maps)))) ** 2
    deviations = [np.max(np.abs(a_1.T @ a_1 - np.eye(len(a_1)))), np.max(np.abs(maps - matrix_powers(a_1, len(maps))))]
    return claim_result(f"{len(maps)} position maps: A_m = A_1^m with A_1 orthogonal", deviations,
                        1e-15 * len(maps) * maps.shape[-1] * scale)


def rotation_form_holds(a) -> ClaimResult:
    """The real spectral form of ``a``: with :math:`P`, the angles :math:`\\varphi_j` and the signs of
    :func:`posenc.geometry.rotation_form`, :math:`P^\\top P = I` and
    :math:`P^\\top A P = \\operatorname{diag}(R(\\varphi_1), \\ldots, R(\\varphi_r), \\pm 1, \\ldots)`, and the
    eigenvalues of :math:`A` are :math:`e^{\\pm i\\varphi_j}` and the signs (each computed eigenvalue within
    reach of one of these, and each of these of a computed eigenvalue). Holds for orthogonal ``a`` only."""
    a = np.asarray(a, dtype=np.float64)
    basis, angles, signs = rotation_form(a)
    expected = _block_form(angles, signs)
    predicted = np.concatenate([np.exp(1j * angles), np.exp(-1j * angles), signs])
    distances = np.abs(np.linalg.eigvals(a)[:, None] - predicted[None, :])
    deviations = [np.max(np.abs(basis.T @ basis - np.eye(len(a))), initial=0.0),
                  np.max(np.abs(basis.T @ a @ basis - expected), initial=0.0),
                  np.max(distances.min(axis=0), initial=0.0), np.max(distances.min(axis=1), initial=0.0)]
    # Round-off grows as an angle draws close to 0 or pi (see rotation_form's tol): 36,000 random orthogonal
    # matrices of widths 1 to 12 stayed below 1e-11 per dimension. A matrix that is not orthogonal misses by ~1.
    return claim_result(f"O^T A O = rotations of planes and +-1 entries, d={len(a)}", deviations,
                        1e-10 * max(1, len(a)))


def _block_form(angles, signs) -> np.ndarray:
    """The middle factor of (eq-rotation-forced): rotations of planes by ``angles``, then the ``signs``."""
    rotations = 2 * len(angles)
    block = np.zeros((rotations + len(signs),) * 2)
    block[:rotations, :rotations] = block_diagonal_rotation(angles)
    block[rotations:, rotations:] = np.diag(signs)
    return block


def scores_in_rotation_basis(a, n_positions: int = 8, d_model: int = 12, seed: int = 0) -> ClaimResult:
    r"""Another basis buys nothing. With :math:`O`, the angles and the signs that
    :func:`posenc.geometry.rotation_form` finds for ``a``, and :math:`\Phi_m` the block-diagonal factor built at
    each position from its own angles :math:`m\varphi_j` and signs :math:`\varepsilon_i^m`, the scores of the
    powers :math:`A_m = A_1^m`, :math:`(A_m W_Q x_m)^\top (A_n W_K x_n)`, equal
    :math:`(\Phi_m O^\top W_Q x_m)^\top (\Phi_n O^\top W_K x_n)` for random projections :math:`W_Q, W_K`
    (``d x d_model``) and tokens :math:`x_m`, at all positions :math:`m, n <` ``n_positions``; the deviation is
    relative to the largest score. Holds for orthogonal ``a`` only."""
    a = np.asarray(a, dtype=np.float64)
    basis, angles, signs = rotation_form(a)
    rng = np.random.default_rng(seed)
    w_q, w_k = rng.standard_normal((2, len(a), d_model)) / np.sqrt(d_model)
    x = rng.standard_normal((n_positions, d_model))
    powers = matrix_powers(a, n_positions)
    phi = np.stack([_block_form(m * angles, signs**m) for m in range(n_positions)])

    def scores(maps, w_q, w_k):  # s[m, n] = (maps[m] w_q x_m)^T (maps[n] w_k x_n)
        queries, keys = (np.einsum("mij,jk,mk->mi", maps, w, x) for w in (w_q, w_k))
        return queries @ keys.T

    direct = scores(powers, w_q, w_k)
    in_basis = scores(phi, basis.T @ w_q, basis.T @ w_k)
    size = max(1.0, float(np.max(np.abs(direct))))
    return claim_result(f"scores of A_1^m with W_Q, W_K = scores of Phi_m with O^T W_Q, O^T W_K, d={len(a)}",
                        (direct - in_basis) / size, 1e-10 * len(a) * n_positions)


def rope_in_rotation_form(d: int = 64, base: float = 10000.0) -> ClaimResult:
    r"""RoPE's :math:`\Theta_1` is already in the form (eq-rotation-forced), with :math:`O = I`, :math:`r = d` and
    :math:`\varphi_{j+1} = \theta_j`: the kernel's matrix (``apply_rope`` at position 1 of the rows of the
    identity, transposed) and ``rope_matrix(1, d)`` both equal the matrix assembled from the plane rotations
    :math:`R(\theta_j)` on the diagonal blocks, zero elsewhere; and :func:`posenc.geometry.rotation_form`
    reads the ladder's angles back from it."""
    theta = sinusoidal.frequencies(d, base)
    assembled = np.zeros((d, d))
    for j, angle in enumerate(theta):
        assembled[2 * j : 2 * j + 2, 2 * j : 2 * j + 2] = rotation_2d(angle)
    kernel = apply_rope(np.eye(d), np.ones(d), base=base).T  # column i: Theta_1 e_i
    found = rotation_form(assembled)
    return claim_result(f"Theta_1 = diag(R(theta_0), ..., R(theta_(d/2-1))), O = I, d={d}",
                        [np.max(np.abs(kernel - assembled)), np.max(np.abs(rope_matrix(1, d, base) - assembled)),
                         np.max(np.abs(np.sort(found.angles) - np.sort(theta))), len(found.signs)],
                        1e-10 * d)
