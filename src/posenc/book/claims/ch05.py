"""The claims checked in chapter 5, *Rotations preserve the norm*

The length of a rotated vector, and the mean and spread of scores with rotated and with added positions.
"""

from __future__ import annotations

import numpy as np

from .result import CHANCE, ClaimResult, claim_result, plane_rotations


def plane_norm_preserved(n_samples: int = 10_000, max_position: int = 4096, seed: int = 0) -> ClaimResult:
    """:math:`\\|R_m q\\| = \\|q\\|` and :math:`R_m^\\top R_m = I` for random positions, angles and plane vectors."""
    rng = np.random.default_rng(seed)
    positions = rng.integers(-max_position, max_position + 1, n_samples)
    rotations = plane_rotations(positions * rng.uniform(0, np.pi, n_samples))
    q = rng.standard_normal((n_samples, 2))
    norm_gap = np.linalg.norm(np.einsum("sij,sj->si", rotations, q), axis=1) - np.linalg.norm(q, axis=1)
    gram_gap = np.swapaxes(rotations, -1, -2) @ rotations - np.eye(2)
    return claim_result("||R_m q|| = ||q|| and R_m^T R_m = I", np.concatenate([norm_gap, gram_gap.ravel()]))


def score_moments(scores, mean: float, std: float, label: str) -> ClaimResult:
    r"""A sample of scores has the predicted ``mean`` and standard deviation ``std``, up to chance.

    The deviation is measured in standard errors: :math:`|\bar s - \mu| / (\sigma/\sqrt{N})` for the mean and
    :math:`|\hat\sigma - \sigma| / \big(\hat\sigma\sqrt{(\kappa - 1)/(4N)}\big)` for the standard deviation, with
    :math:`\kappa` the sample's kurtosis (the large-sample standard error of a standard deviation); the larger
    of the two is held to :data:`~posenc.book.claims.result.CHANCE`."""
    scores = np.ravel(np.asarray(scores, dtype=np.float64))
    n, sample_mean, sample_std = scores.size, float(np.mean(scores)), float(np.std(scores))
    kurtosis = float(np.mean((scores - sample_mean) ** 4)) / sample_std**4
    errors = [abs(sample_mean - mean) / (std / np.sqrt(n)),
              abs(sample_std - std) / (sample_std * np.sqrt((kurtosis - 1) / (4 * n)))]
    return ClaimResult(f"{label}: mean {mean:+.3f}, standard deviation {std:.3f} (deviation in standard errors)",
                       float(max(errors)), CHANCE)
