"""The claims checked in chapter 7, *A clock with many hands*

The block-diagonal Theta_m, how well one hand and the whole clock tell positions apart, the clock's distance, shift
by k as one matrix, and the complex-number view.
"""

from __future__ import annotations

import numpy as np

from posenc import clock, sinusoidal
from posenc.rotary import apply_rope, rope_matrix

from .result import ClaimResult, angle_tolerance, claim_result


def block_rotation_difference(m: float, n: float, d: int = 64, base: float = 10000.0) -> ClaimResult:
    """:math:`\\Theta_m^\\top\\Theta_n = \\Theta_{n-m}` for the block-diagonal RoPE matrices."""
    lhs = rope_matrix(m, d, base).T @ rope_matrix(n, d, base)
    return claim_result("Theta_m^T Theta_n = Theta_(n-m)", lhs - rope_matrix(n - m, d, base), angle_tolerance(m, n))


def block_rotation_orthogonal(m: float, d: int = 64, base: float = 10000.0) -> ClaimResult:
    """:math:`\\Theta_m^\\top\\Theta_m = I`: the block-diagonal RoPE matrix is orthogonal."""
    theta_m = rope_matrix(m, d, base)
    return claim_result("Theta_m^T Theta_m = I", theta_m.T @ theta_m - np.eye(d))


def norm_preserved(m: float, d: int = 64, base: float = 10000.0, seed: int = 0) -> ClaimResult:
    """:math:`\\|\\Theta_m q\\| = \\|q\\|` for a random ``q``."""
    q = np.random.default_rng(seed).standard_normal(d)
    return claim_result("||Theta_m q|| = ||q||", np.linalg.norm(rope_matrix(m, d, base) @ q) - np.linalg.norm(q))


def fast_hand_aliases(context: int = 32768, d: int = 64, base: float = 10000.0) -> ClaimResult:
    r"""On the fast hand alone (:math:`\theta = 1`), two of the positions :math:`0, \ldots, N-1` come closer
    than the slowest hand of a ``d``-wide clock moves in one position, :math:`\theta_{d/2-1}`; the deviation is
    how far the closest pair misses that (0 if it does not)."""
    closest = clock.min_separation(2, n_positions=context).distance  # d = 2: the single hand theta_0 = 1
    slowest_step = float(sinusoidal.frequencies(d, base)[-1])
    return claim_result(f"fast hand alone: closest pair of {context:,} positions < theta_{d // 2 - 1}",
                        max(closest - slowest_step, 0.0), 0.0)


def slowest_hand_keeps_order(context: int = 32768, d: int = 64, base: float = 10000.0) -> ClaimResult:
    r"""The slowest hand's readings :math:`m\theta_{d/2-1} \bmod 2\pi` increase strictly over the positions
    :math:`0, \ldots, N-1`: it never completes a turn, and every position gets its own angle. The deviation
    is the number of steps at which the reading does not increase."""
    readings = clock.wrapped_angles(np.arange(context), float(sinusoidal.frequencies(d, base)[-1]))
    return claim_result(f"slowest hand: readings of {context:,} positions strictly increase",
                        np.count_nonzero(np.diff(readings) <= 0), 0.0)


def neighbours_closest(context: int = 32768, d: int = 64, base: float = 10000.0) -> ClaimResult:
    r"""On the whole clock no two of the positions :math:`0, \ldots, N-1` are closer than two neighbours:
    :math:`D(\Delta) \ge D(1) > 0` for every offset :math:`1 \le \Delta < N`. The deviation is the number of
    offsets closer than a neighbour (and 1 more if neighbours coincide)."""
    distances = clock.offset_distance(np.arange(1, context), d, base)
    return claim_result(f"whole clock: no two of {context:,} positions closer than neighbours",
                        np.count_nonzero(distances[1:] < distances[0]) + int(distances[0] <= 0), 0.0)


def clock_distance_depends_on_offset(n_positions: int = 512, d: int = 64, base: float = 10000.0) -> ClaimResult:
    """:math:`\\operatorname{dist}(m, n)`, computed from the two clock readings, equals
    :math:`\\operatorname{dist}(0, n - m)` for every pair
    :math:`0 \\le m < n <` ``n_positions``."""
    m, n = np.triu_indices(n_positions, 1)
    gap = clock.clock_distance(m, n, d, base) - clock.offset_distance(n - m, d, base)
    return claim_result("dist(m, n) = dist(0, n - m) for every pair", gap, np.sqrt(d) * angle_tolerance(n_positions))


def clock_advance(k: float, n_positions: int = 64, d: int = 64, base: float = 10000.0, seed: int = 0) -> ClaimResult:
    """:math:`\\Theta_{m+k} = \\Theta_k\\Theta_m` for :math:`m = 0, \\ldots, N-1`: moving every position on by
    ``k`` is one fixed matrix, whatever the starting position."""
    x = np.random.default_rng(seed).standard_normal((n_positions, d))
    positions = np.arange(n_positions)
    advanced = apply_rope(x, positions + k, base=base)
    return claim_result("Theta_(m+k) = Theta_k Theta_m for every m",
                        advanced - apply_rope(x, positions, base=base) @ rope_matrix(k, d, base).T,
                        np.sqrt(d) * angle_tolerance(k, n_positions))


def complex_view(m: float, n: float, d: int = 64, base: float = 10000.0, seed: int = 0) -> ClaimResult:
    """Read pair :math:`j` as :math:`z_j = x_{2j} + i x_{2j+1}`: :math:`\\Theta_m` multiplies it by
    :math:`e^{im\\theta_j}`, and the score is :math:`\\operatorname{Re}\\sum_j z_j\\bar w_j e^{i(m-n)\\theta_j}`."""
    q, k = np.random.default_rng(seed).standard_normal((2, d))
    theta = sinusoidal.frequencies(d, base)
    z, w = q[0::2] + 1j * q[1::2], k[0::2] + 1j * k[1::2]
    rotated_q, rotated_k = rope_matrix(m, d, base) @ q, rope_matrix(n, d, base) @ k
    pair_gap = rotated_q[0::2] + 1j * rotated_q[1::2] - z * np.exp(1j * m * theta)
    score_gap = rotated_q @ rotated_k - np.real(np.sum(z * np.conj(w) * np.exp(1j * (m - n) * theta)))
    return claim_result("rotation = multiplication by e^(i m theta); score = Re sum z conj(w) e^(i(m-n)theta)",
                        np.append(np.abs(pair_gap), score_gap), np.sqrt(d) * angle_tolerance(m, n))
