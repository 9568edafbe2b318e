"""One checking function per claim of the lecture.

Each function runs the claim on concrete (seeded, random) inputs and returns a :class:`ClaimResult`:
what was claimed, the largest deviation measured between the two sides, the tolerance it is held to and
whether it holds. Chapters display the result next to the theorem; tests assert ``holds`` over many
inputs. Tolerances are a small multiple of float64 round-off for the sizes involved.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import attention as att
from .rotary import apply_rope, half_to_interleaved, interleaved_to_half, rope_matrix, rotation_2d
from .scores import repeated_token_scores, toeplitz_deviation
from .sinusoidal import (
    position_vectors,
    shift_matrix,
    similarity,
    similarity_from_offset,
    sinusoidal_table,
)

TOL = 1e-12


@dataclass(frozen=True)
class ClaimResult:
    """The outcome of checking one claim: ``holds`` is ``max_deviation <= tolerance``."""

    claim: str
    max_deviation: float
    tolerance: float

    @property
    def holds(self) -> bool:
        return bool(self.max_deviation <= self.tolerance)

    def __str__(self) -> str:
        verdict = "holds" if self.holds else "FAILS"
        return f"{self.claim}: max deviation {self.max_deviation:.1e} (tolerance {self.tolerance:.0e}) -- {verdict}"

    def _repr_html_(self) -> str:
        verdict = "&#10003; holds" if self.holds else "&#10007; fails"
        return (
            '<table class="claim-check"><tr><th>claim</th><th>max deviation</th><th>tolerance</th><th></th></tr>'
            f"<tr><td>{self.claim}</td><td>{self.max_deviation:.1e}</td><td>{self.tolerance:.0e}</td>"
            f"<td>{verdict}</td></tr></table>"
        )


def _result(claim: str, deviations, tolerance: float = TOL) -> ClaimResult:
    return ClaimResult(claim, float(np.max(np.abs(deviations))), tolerance)


def angle_tolerance(*positions: float) -> float:
    """Round-off allowed when angles reach ``|position|`` radians: float64 keeps about 16 digits of each
    angle, so the absolute error of a cosine grows in proportion to the angle."""
    return 1e-13 * (1.0 + sum(abs(float(p)) for p in positions))


def permutation_equivariance(n: int = 5, d: int = 8, seed: int = 0) -> ClaimResult:
    """Attention(PX) = P Attention(X) for self-attention with random weights and a random permutation."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d))
    w_q, w_k, w_v = (rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(3))
    p = att.permutation_matrix(rng.permutation(n))
    lhs = att.self_attention(p @ x, w_q, w_k, w_v)
    rhs = p @ att.self_attention(x, w_q, w_k, w_v)
    return _result("Attention(PX) = P Attention(X)", lhs - rhs)


def permutation_equivariance_torch(n: int = 5, d: int = 8, heads: int = 2, seed: int = 0) -> ClaimResult:
    """The same claim for ``torch.nn.MultiheadAttention`` (no mask, float64, random initial weights)."""
    import torch

    torch.manual_seed(seed)
    mha = torch.nn.MultiheadAttention(d, heads, batch_first=True, dtype=torch.float64).eval()
    x = torch.randn(1, n, d, dtype=torch.float64)
    order = torch.randperm(n)
    with torch.no_grad():
        out = mha(x, x, x, need_weights=False)[0]
        out_permuted = mha(x[:, order], x[:, order], x[:, order], need_weights=False)[0]
    return _result("MultiheadAttention(PX) = P MultiheadAttention(X)", (out_permuted - out[:, order]).numpy())


def permutation_equivariance_encoder(n: int = 5, d: int = 8, heads: int = 2, layers: int = 3,
                                     seed: int = 0) -> ClaimResult:
    """The same claim for a stack of ``torch.nn.TransformerEncoderLayer`` blocks (attention, feed-forward
    network, residual connections, layer normalisation; no mask, no dropout, float64)."""
    import torch

    torch.manual_seed(seed)
    block = torch.nn.TransformerEncoderLayer(d, heads, dim_feedforward=4 * d, dropout=0.0, batch_first=True,
                                             dtype=torch.float64)
    stack = torch.nn.TransformerEncoder(block, layers, enable_nested_tensor=False).eval()
    x = torch.randn(1, n, d, dtype=torch.float64)
    order = torch.randperm(n)
    with torch.no_grad():
        deviation = stack(x[:, order]) - stack(x)[:, order]
    return _result(f"{layers} encoder blocks: Encoder(PX) = P Encoder(X)", deviation.numpy())


def rotation_difference(m: float, n: float, theta: float) -> ClaimResult:
    """:math:`R_m^\\top R_n = R_{n-m}` for 2x2 rotations by :math:`m\\theta`, :math:`n\\theta`."""
    lhs = rotation_2d(m * theta).T @ rotation_2d(n * theta)
    return _result("R_m^T R_n = R_(n-m)", lhs - rotation_2d((n - m) * theta),
                   angle_tolerance(m * theta, n * theta))


def block_rotation_difference(m: float, n: float, d: int = 64, base: float = 10000.0) -> ClaimResult:
    """:math:`\\Theta_m^\\top\\Theta_n = \\Theta_{n-m}` for the block-diagonal RoPE matrices."""
    lhs = rope_matrix(m, d, base).T @ rope_matrix(n, d, base)
    return _result("Theta_m^T Theta_n = Theta_(n-m)", lhs - rope_matrix(n - m, d, base), angle_tolerance(m, n))


def norm_preserved(m: float, d: int = 64, base: float = 10000.0, seed: int = 0) -> ClaimResult:
    """:math:`\\|\\Theta_m q\\| = \\|q\\|` for a random ``q``."""
    q = np.random.default_rng(seed).standard_normal(d)
    return _result("||Theta_m q|| = ||q||", np.linalg.norm(rope_matrix(m, d, base) @ q) - np.linalg.norm(q))


def rope_scores_depend_on_offset(m: float, n: float, shift: float, d: int = 64, seed: int = 0) -> ClaimResult:
    """The RoPE score of ``q`` at ``m`` and ``k`` at ``n`` equals the score at ``m + shift``, ``n + shift``,
    and equals :math:`q^\\top\\Theta_{n-m}k/\\sqrt d`."""
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((1, d)), rng.standard_normal((1, d))

    def score(a: float, b: float) -> float:
        return float(apply_rope(q, [a])[0] @ apply_rope(k, [b])[0]) / np.sqrt(d)

    relative = float(q[0] @ rope_matrix(n - m, d) @ k[0]) / np.sqrt(d)
    return _result("score(m, n) = score(m + s, n + s) = q^T Theta_(n-m) k / sqrt(d)",
                   [score(m, n) - score(m + shift, n + shift), score(m, n) - relative],
                   np.sqrt(d) * angle_tolerance(m, n, shift))


def repeated_token_toeplitz(n: int = 16, d: int = 64, seed: int = 0) -> ClaimResult:
    """The RoPE score matrix of one token repeated ``n`` times is Toeplitz."""
    q, k = np.random.default_rng(seed).standard_normal((2, d))
    scores = repeated_token_scores(q, k, n)
    return ClaimResult("repeated token: S[m, n] = S[m+1, n+1]", toeplitz_deviation(scores), 1e-10)


def sinusoidal_offset(p: float, q, d: int = 64, base: float = 10000.0) -> ClaimResult:
    """:math:`\\mathrm{PE}(p)\\cdot\\mathrm{PE}(q) = \\sum_j\\cos(\\theta_j(p-q))`, a function of ``p - q`` alone."""
    q = np.atleast_1d(np.asarray(q, dtype=np.float64))
    return _result("PE(p).PE(q) = sum_j cos(theta_j (p - q))",
                   similarity(p, q, d, base) - similarity_from_offset(p - q, d, base), 1e-9)


def sinusoidal_shift(k: float, n_positions: int = 64, d: int = 64, base: float = 10000.0) -> ClaimResult:
    """:math:`\\mathrm{PE}(p+k) = M_k\\,\\mathrm{PE}(p)` for ``p = 0..n_positions-1``, one fixed :math:`M_k`."""
    table = sinusoidal_table(n_positions, d, base)
    shifted = position_vectors(np.arange(n_positions) + k, d, base)
    return _result("PE(p+k) = M_k PE(p)", shifted - table @ shift_matrix(k, d, base).T, 1e-9)


def layouts_agree(shape=(2, 8, 16), seed: int = 0) -> ClaimResult:
    """``apply_rope(x[..., p], layout="half") == apply_rope(x)[..., p]`` with ``p = interleaved_to_half(d)``,
    and the inverse permutation undoes ``p``."""
    x = np.random.default_rng(seed).standard_normal(shape)
    p = interleaved_to_half(shape[-1])
    inverse_error = x[..., p][..., half_to_interleaved(shape[-1])] - x
    return _result("interleaved and half layouts agree up to the permutation",
                   np.concatenate([(apply_rope(x[..., p], layout="half") - apply_rope(x)[..., p]).ravel(),
                                   inverse_error.ravel()]))


def numpy_torch_agree(shape=(2, 8, 16), layout: str = "interleaved", seed: int = 0) -> ClaimResult:
    """The numpy and torch kernels of ``apply_rope`` give the same numbers (float64)."""
    import torch

    x = np.random.default_rng(seed).standard_normal(shape)
    positions = np.arange(shape[-2]) + 7
    from_torch = apply_rope(torch.from_numpy(x), positions, layout=layout).numpy()
    return _result(f"numpy and torch apply_rope agree ({layout})",
                   from_torch - apply_rope(x, positions, layout=layout))

