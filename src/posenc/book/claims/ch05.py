"""The claims checked in chapter 5, *Rotations preserve the norm*

The length of a rotated vector.
"""

from __future__ import annotations

import numpy as np

from .result import ClaimResult, claim_result, plane_rotations


def plane_norm_preserved(n_samples: int = 10_000, max_position: int = 4096, seed: int = 0) -> ClaimResult:
    """:math:`\\|R_m q\\| = \\|q\\|` and :math:`R_m^\\top R_m = I` for random positions, angles and plane vectors."""
    rng = np.random.default_rng(seed)
    positions = rng.integers(-max_position, max_position + 1, n_samples)
    rotations = plane_rotations(positions * rng.uniform(0, np.pi, n_samples))
    q = rng.standard_normal((n_samples, 2))
    norm_gap = np.linalg.norm(np.einsum("sij,sj->si", rotations, q), axis=1) - np.linalg.norm(q, axis=1)
    gram_gap = np.swapaxes(rotations, -1, -2) @ rotations - np.eye(2)
    return claim_result("||R_m q|| = ||q|| and R_m^T R_m = I", np.concatenate([norm_gap, gram_gap.ravel()]))
