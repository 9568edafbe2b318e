"""The claims checked in chapter 7, *A clock with many hands*

The block-diagonal Theta_m, the clock's distance, shift by k as one matrix, and the complex-number view.
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
