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
from . import clock, fourier, scores, sinusoidal
from .alibi import alibi_bias, alibi_slopes
from .decay import rope_partial_sums
from .decoding import cached_decoding_scores, positions_from_mask
from .geometry import block_diagonal_rotation, offset_deviation, rotation_2d, rotation_form
from .precision import round_to
from .relative import offsets, shaw_scores, t5_bias, t5_bucket, transformer_xl_terms
from .rotary import (
    apply_rope,
    half_to_interleaved,
    interleaved_to_half,
    interleaved_to_half_rows,
    rope_matrix,
    rope_with_ladder,
)
from .rotary_axes import axial_rope, grid_offset_deviation, grid_positions, mrope, partial_rope
from .scaling import llama3, ntk_aware, position_interpolation, yarn
from .scores import repeated_token_scores, toeplitz_deviation
from .sinusoidal import (
    added_encoding_score_terms,
    position_vectors,
    shift_matrix,
    similarity,
    similarity_from_offset,
    sinusoidal_table,
)
from .tensor2tensor import timing_frequencies, timing_signal
from .xpos import xpos, xpos_zeta

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
            '<table class="claim-check"><tr><th>claim</th><th>max deviation</th><th>tolerance</th><th>verdict</th></tr>'
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


def rotation_difference(m, n, theta) -> ClaimResult:
    """:math:`R_m^\\top R_n = R_{n-m}` for 2x2 rotations by :math:`m\\theta`, :math:`n\\theta`; ``m``, ``n`` and
    ``theta`` may be numbers or arrays of cases (broadcast together), all four entries compared."""
    m, n, theta = np.broadcast_arrays(*(np.atleast_1d(np.asarray(v, dtype=np.float64)) for v in (m, n, theta)))
    lhs = np.swapaxes(_rotations(m * theta), -1, -2) @ _rotations(n * theta)
    return _result("R_m^T R_n = R_(n-m)", lhs - _rotations((n - m) * theta),
                   angle_tolerance(np.max(np.abs(m * theta)), np.max(np.abs(n * theta))))


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


# Chapters 4-7: rotations in the plane, norms, Toeplitz scores, the clock with many hands.


def _rotations(angles) -> np.ndarray:
    """A stack of 2x2 rotations, shape ``(len(angles), 2, 2)``."""
    return np.moveaxis(rotation_2d(np.asarray(angles, dtype=np.float64)), -1, 0)


def rotation_difference_sample(n_samples: int = 10_000, max_position: int = 4096, seed: int = 0) -> ClaimResult:
    """:func:`rotation_difference` for random integer positions :math:`|m|, |n| \\le` ``max_position`` and
    random angles :math:`\\theta \\in [0, \\pi)`."""
    rng = np.random.default_rng(seed)
    m, n = rng.integers(-max_position, max_position + 1, size=(2, n_samples))
    return rotation_difference(m, n, rng.uniform(0.0, np.pi, n_samples))


def plane_norm_preserved(n_samples: int = 10_000, max_position: int = 4096, seed: int = 0) -> ClaimResult:
    """:math:`\\|R_m q\\| = \\|q\\|` and :math:`R_m^\\top R_m = I` for random positions, angles and plane vectors."""
    rng = np.random.default_rng(seed)
    rotations = _rotations(rng.integers(-max_position, max_position + 1, n_samples) * rng.uniform(0, np.pi, n_samples))
    q = rng.standard_normal((n_samples, 2))
    norm_gap = np.linalg.norm(np.einsum("sij,sj->si", rotations, q), axis=1) - np.linalg.norm(q, axis=1)
    gram_gap = np.swapaxes(rotations, -1, -2) @ rotations - np.eye(2)
    return _result("||R_m q|| = ||q|| and R_m^T R_m = I", np.concatenate([norm_gap, gram_gap.ravel()]))


def block_rotation_orthogonal(m: float, d: int = 64, base: float = 10000.0) -> ClaimResult:
    """:math:`\\Theta_m^\\top\\Theta_m = I`: the block-diagonal RoPE matrix is orthogonal."""
    theta_m = rope_matrix(m, d, base)
    return _result("Theta_m^T Theta_m = I", theta_m.T @ theta_m - np.eye(d))


def circulant_is_toeplitz(n: int = 6, seed: int = 0) -> ClaimResult:
    """A circulant matrix (random first row) has constant diagonals; exactly, since its entries are copies."""
    row = np.random.default_rng(seed).standard_normal(n)
    return ClaimResult("circulant C: C[m, n] = C[m+1, n+1]", toeplitz_deviation(scores.circulant(row)), 0.0)


def single_hand_circulant(n_positions: int = 6, seed: int = 0) -> ClaimResult:
    """With :math:`\\theta = 2\\pi/N`, one hand's :math:`N\\times N` repeated-token score matrix is circulant."""
    q, k = np.random.default_rng(seed).standard_normal((2, 2))
    s = scores.plane_scores(q, k, n_positions, 2 * np.pi / n_positions)
    return _result("theta = 2 pi / N: S[m, n] = S[(m+1) mod N, (n+1) mod N]", scores.circulant_deviation(s),
                   angle_tolerance(2 * np.pi))


def offset_sinusoid(theta: float, n_offsets: int = 64, seed: int = 0) -> ClaimResult:
    """One hand (:math:`d = 2`):
    :math:`q^\\top R_\\Delta k/\\sqrt2 = \\|q\\|\\|k\\|\\cos(\\Delta\\theta + \\varphi)/\\sqrt2`
    for :math:`|\\Delta| \\le` ``n_offsets``, :math:`\\varphi` the angle from ``q`` to ``k``."""
    q, k = np.random.default_rng(seed).standard_normal((2, 2))
    offsets = np.arange(-n_offsets, n_offsets + 1)
    direct = np.einsum("i,sij,j->s", q, _rotations(offsets * theta), k) / np.sqrt(2)
    return _result("q^T R_D k / sqrt(2) = |q||k| cos(D theta + phi) / sqrt(2)",
                   direct - scores.plane_score_from_offset(q, k, offsets, theta), angle_tolerance(n_offsets * theta))


def clock_distance_depends_on_offset(n_positions: int = 512, d: int = 64, base: float = 10000.0) -> ClaimResult:
    """:math:`D(m, n)`, computed from the two clock readings, equals :math:`D(n - m)` for every pair
    :math:`0 \\le m < n <` ``n_positions``."""
    m, n = np.triu_indices(n_positions, 1)
    gap = clock.clock_distance(m, n, d, base) - clock.offset_distance(n - m, d, base)
    return _result("D(m, n) = D(n - m) for every pair", gap, np.sqrt(d) * angle_tolerance(n_positions))


def clock_advance(k: float, n_positions: int = 64, d: int = 64, base: float = 10000.0, seed: int = 0) -> ClaimResult:
    """:math:`\\Theta_{m+k} = \\Theta_k\\Theta_m` for :math:`m = 0, \\ldots, N-1`: moving every position on by
    ``k`` is one fixed matrix, whatever the starting position."""
    x = np.random.default_rng(seed).standard_normal((n_positions, d))
    positions = np.arange(n_positions)
    advanced = apply_rope(x, positions + k, base=base)
    return _result("Theta_(m+k) = Theta_k Theta_m for every m",
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
    return _result("rotation = multiplication by e^(i m theta); score = Re sum z conj(w) e^(i(m-n)theta)",
                   np.append(np.abs(pair_gap), score_gap), np.sqrt(d) * angle_tolerance(m, n))


# --- Chapters 2 and 3: what a learned table never learns; the sinusoidal table once it is projected ---


def untrained_rows_unchanged(training) -> ClaimResult:
    """Rows of a learned table at positions at or past the training length receive exactly zero gradient
    and, without weight decay, end training bit-identical to their start. ``training`` is the record
    returned by :func:`posenc.torch_nn.train_briefly`."""
    unused = slice(training.train_length, None)
    deviations = [np.max(training.largest_gradient[unused], initial=0.0),
                  np.max(training.row_change[unused], initial=0.0)]
    return ClaimResult(f"rows >= {training.train_length}: zero gradient, unchanged", float(max(deviations)), 0.0)


def decayed_rows_only_shrink(training) -> ClaimResult:
    r"""With AdamW's weight decay :math:`\lambda` and learning rate :math:`\eta`, an untrained row is only
    multiplied by :math:`1 - \eta\lambda` at each step, so after :math:`T` steps it is
    :math:`(1 - \eta\lambda)^T` times its initial value. Tolerance: one float32 rounding per step."""
    factor = (1.0 - training.lr * training.weight_decay) ** training.steps
    unused = slice(training.train_length, None)
    start, end = training.initial_table[unused], training.final_table[unused]
    tolerance = training.steps * float(np.finfo(np.float32).eps) * float(np.max(np.abs(start), initial=1.0))
    return _result(f"rows >= {training.train_length}: scaled by (1 - lr wd)^steps = {factor:.4f}",
                   np.ravel(end - factor * start), tolerance)


def added_encoding_expansion(n: int = 16, d_model: int = 16, seed: int = 0) -> ClaimResult:
    r""":math:`(x_m + p_m)^\top A (x_n + p_n)` is the sum of its four terms (content and position, each
    with each), for random content, random weights and the sinusoidal :math:`p_m`."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d_model))
    w_q, w_k = (rng.standard_normal((d_model, d_model)) / np.sqrt(d_model) for _ in range(2))
    terms = added_encoding_score_terms(x, w_q, w_k)
    parts = sum(terms[name] for name in ("content-content", "content-position", "position-content",
                                         "position-position"))
    return _result("(x_m+p_m)^T A (x_n+p_n) = sum of the four terms", terms["total"] - parts, 1e-10)


# Chapters 8 and 9: serving RoPE (KV cache, padding, layouts, precision), stretching it (extension, ALiBi, decay).


def kv_cache_matches_recompute(n: int = 12, d: int = 16, seed: int = 0) -> ClaimResult:
    """Decoding token by token with a KV cache (each key rotated once, at its own position) gives the
    causal RoPE scores of recomputing everything, and the cached keys are the keys of the full pass."""
    q, k = np.random.default_rng(seed).standard_normal((2, n, d))
    cached, cache = cached_decoding_scores(q, k)
    full = scores.rope_scores(q, k)
    seen = att.causal_mask(n)
    return _result("KV cache: decoded scores = recomputed scores, cached keys unchanged",
                   np.concatenate([(cached - full)[seen], (cache - apply_rope(k)).ravel()]))


def left_padding_with_mask_positions(n_real: int = 4, n_pad: int = 3, d: int = 16, seed: int = 0) -> ClaimResult:
    """A prompt padded on the left, with positions from ``cumsum(mask) - 1``, scores its real tokens (and
    the next token, decoded at position ``n_real``) exactly as the same prompt without padding."""
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((2, n_real + 1, d))  # the prompt and the next token
    pad = rng.standard_normal((n_pad, d))
    positions = positions_from_mask(np.r_[np.zeros(n_pad, int), np.ones(n_real, int)])
    keys_padded = apply_rope(np.vstack([pad, k[:n_real]]), positions)[n_pad:]
    queries_padded = apply_rope(np.vstack([pad, q[:n_real]]), positions)[n_pad:]
    keys_alone, queries_alone = apply_rope(k[:n_real]), apply_rope(q[:n_real])
    next_query = apply_rope(q[n_real:], [positions[-1] + 1])
    deviation = np.concatenate([(queries_padded @ keys_padded.T - queries_alone @ keys_alone.T).ravel(),
                                (next_query @ keys_padded.T - apply_rope(q[n_real:], [n_real]) @ keys_alone.T).ravel()])
    return ClaimResult("left padding, positions from the mask: scores = unpadded scores",
                       float(np.max(np.abs(deviation))), 0.0)


def ntk_aware_ends(d: int = 128, factor: float = 8.0, base: float = 10000.0) -> ClaimResult:
    """NTK-aware scaling keeps the fastest hand, theta'_0 = theta_0, and divides the slowest by exactly s."""
    theta, scaled = sinusoidal.frequencies(d, base), ntk_aware(d, factor, base)
    return _result(f"NTK-aware (s = {factor:g}): theta'_0 = theta_0, theta'_(d/2-1) = theta_(d/2-1)/s",
                   [scaled[0] / theta[0] - 1, scaled[-1] * factor / theta[-1] - 1])


def llama3_bands(d: int = 128, factor: float = 8.0, low_freq_factor: float = 1.0, high_freq_factor: float = 4.0,
                 original_context: int = 8192, base: float = 500000.0) -> ClaimResult:
    """Llama 3.1's rule leaves wavelengths under L0/high_freq_factor unchanged and divides those over
    L0/low_freq_factor by the factor (relative deviations)."""
    theta, wavelength = sinusoidal.frequencies(d, base), sinusoidal.wavelengths(d, base)
    ratio = llama3(d, factor, low_freq_factor, high_freq_factor, original_context, base) / theta
    short, long = wavelength < original_context / high_freq_factor, wavelength > original_context / low_freq_factor
    return _result(f"Llama 3.1: wavelength < {original_context / high_freq_factor:g} kept, "
                   f"> {original_context / low_freq_factor:g} divided by {factor:g}",
                   np.concatenate([ratio[short] - 1, ratio[long] * factor - 1]))


def llama3_is_yarn_ramp(d: int = 128, factor: float = 8.0, low_freq_factor: float = 1.0,
                        high_freq_factor: float = 4.0, original_context: int = 8192,
                        base: float = 500000.0) -> ClaimResult:
    """Llama 3.1's rule, written hand by hand as in Meta's reference code (keep, divide, or blend by
    ``smooth``), equals YaRN's ladder with alpha = low_freq_factor and beta = high_freq_factor."""
    meta = []
    for theta in sinusoidal.frequencies(d, base):
        wavelength = 2 * np.pi / theta
        if wavelength < original_context / high_freq_factor:
            meta.append(theta)
        elif wavelength > original_context / low_freq_factor:
            meta.append(theta / factor)
        else:
            smooth = (original_context / wavelength - low_freq_factor) / (high_freq_factor - low_freq_factor)
            meta.append((1 - smooth) * theta / factor + smooth * theta)
    ramp = yarn(d, factor, original_context, base, alpha=low_freq_factor, beta=high_freq_factor)
    return _result(f"Llama 3.1 rule = YaRN ramp with alpha = {low_freq_factor:g}, beta = {high_freq_factor:g}",
                   np.array(meta) / ramp - 1)


def checkpoint_conversion(n_heads: int = 4, head_dim: int = 16, d_model: int = 32, n: int = 10,
                          seed: int = 0) -> ClaimResult:
    """Permuting the rows of W_Q and W_K within each head by ``interleaved_to_half`` makes half-layout RoPE
    give the scores of interleaved RoPE with the original weights, in every head."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d_model))
    w_q, w_k = rng.standard_normal((2, n_heads * head_dim, d_model)) / np.sqrt(d_model)  # rows = outputs
    rows = interleaved_to_half_rows(n_heads, head_dim)

    def head_scores(w_q, w_k, layout):
        q, k = ((x @ w.T).reshape(n, n_heads, head_dim).transpose(1, 0, 2) for w in (w_q, w_k))
        return scores.rope_scores(q, k, layout=layout)

    return _result("interleaved scores with W = half scores with permuted rows of W",
                   head_scores(w_q, w_k, "interleaved") - head_scores(w_q[rows], w_k[rows], "half"))


def integers_exact_up_to(dtype: str) -> ClaimResult:
    """A float format with p significand bits (bfloat16: 8, float16: 11) holds every integer up to 2^p
    exactly; the deviation is the largest |round(m) - m| over m = 0..2^p."""
    bits = {"bfloat16": 8, "float16": 11, "float32": 24}[dtype]
    m = np.arange(2**bits + 1, dtype=np.float64)
    return ClaimResult(f"{dtype}: integers 0..{2**bits} exact", float(np.max(np.abs(round_to(m, dtype) - m))), 0.0)


def alibi_bias_toeplitz(n: int = 16, n_heads: int = 8) -> ClaimResult:
    """Every head's ALiBi bias matrix has constant diagonals (exactly: each entry is -slope * |m - n|)."""
    bias = alibi_bias(n, alibi_slopes(n_heads))
    return ClaimResult(f"ALiBi bias, {n_heads} heads: B[m, n] = B[m+1, n+1]",
                       max(toeplitz_deviation(b) for b in bias), 0.0)


def long_term_decay_bound_holds(d: int = 64, base: float = 10000.0, max_distance: int = 4096,
                                seed: int = 0) -> ClaimResult:
    """RoFormer's bound |q^T Theta_(n-m) k| <= max_i |h_(i+1) - h_i| * sum_j |S_j(m - n)| for random q, k and
    every distance up to ``max_distance``; the deviation is the largest excess of the left side (0 if none)."""
    q, k = np.random.default_rng(seed).standard_normal((2, d))
    distances = np.arange(max_distance + 1)
    raw = apply_rope(np.tile(q, (len(distances), 1)), distances, base=base) @ k  # key at n = 0, query at m = r
    h = np.r_[(q[0::2] + 1j * q[1::2]) * np.conj(k[0::2] + 1j * k[1::2]), 0]  # h_i = q_i conj(k_i), h_(d/2) = 0
    bound = np.max(np.abs(np.diff(h))) * np.abs(rope_partial_sums(distances, d, base)).sum(axis=1)
    return _result("|score(r)| <= max|h_(i+1) - h_i| sum_j |S_j(r)|", np.maximum(np.abs(raw) - bound, 0.0),
                   1e-9)


# ---- Second edition, chapters 1-5 (text1): the direction of M_k, the lecture's similarity numbers ----


def shift_blocks_turn_clockwise(k: float, d: int = 64, base: float = 10000.0) -> ClaimResult:
    r"""In the table's (sin, cos) order, block :math:`j` of :math:`M_k` is the clockwise turn
    :math:`R(-k\theta_j)`, with :math:`R(\alpha)` the counter-clockwise rotation of the plane.

    The deviation is the largest entry of :math:`M_k - \operatorname{diag}_j R(-k\theta_j)`, the right-hand
    side built block by block from :func:`posenc.geometry.rotation_2d`, not from the shared builder.
    """
    m_k = shift_matrix(k, d, base)
    expected = np.zeros((d, d))
    for j, theta in enumerate(sinusoidal.frequencies(d, base)):
        expected[2 * j : 2 * j + 2, 2 * j : 2 * j + 2] = rotation_2d(-k * theta)
    return _result(f"M_{k:g}'s blocks are R(-k theta_j) (clockwise), d={d}", m_k - expected, angle_tolerance(k))


def sinusoidal_cosine_similarity(m: float, n: float, d: int = 64, base: float = 10000.0) -> ClaimResult:
    r"""The rescaled dot product :math:`\mathrm{PE}(m)\cdot\mathrm{PE}(n)/(d/2)` is the cosine similarity
    :math:`\mathrm{PE}(m)\cdot\mathrm{PE}(n) / (\|\mathrm{PE}(m)\|\,\|\mathrm{PE}(n)\|)`, because every
    position vector has length :math:`\sqrt{d/2}`."""
    pe_m, pe_n = position_vectors([m, n], d, base)
    cosine = pe_m @ pe_n / (np.linalg.norm(pe_m) * np.linalg.norm(pe_n))
    scaled = similarity(m, [n], d, base)[0] / (d / 2)
    return _result(f"PE({m:g})·PE({n:g})/(d/2) is the cosine similarity, d={d}", scaled - cosine)


def rope_turns_each_pair(m: float, d: int = 64, base: float = 10000.0, seed: int = 0) -> ClaimResult:
    r"""``apply_rope`` at position :math:`m` turns every pair :math:`(x_{2j}, x_{2j+1})` of a random vector by
    the plane rotation :math:`R(m\theta_j)`, each pair on its own (the right-hand side applies
    :func:`posenc.geometry.rotation_2d` pair by pair, without the kernel)."""
    x = np.random.default_rng(seed).standard_normal(d)
    turned = apply_rope(x[None, :], [m], base=base)[0]
    by_pair = [rotation_2d(m * theta) @ x[2 * j : 2 * j + 2] for j, theta in enumerate(sinusoidal.frequencies(d, base))]
    return _result(f"apply_rope at m={m:g} turns pair j by R(m theta_j), d={d}", turned - np.concatenate(by_pair),
                   angle_tolerance(m))


# --- text2: chapter 6's circulant/Toeplitz equivalence and convolution layers; chapter 9's reference-code forms ---


def toeplitz_circulant_iff(n: int = 6, trials: int = 20, seed: int = 0) -> ClaimResult:
    """An ``n x n`` Toeplitz matrix with ``S[m, n] = f(n - m)`` is circulant if and only if
    ``f(D) = f(D - n)`` for ``D = 1, ..., n - 1``. Tried on random Toeplitz matrices, on Toeplitz matrices
    whose lower diagonals copy the wrapped upper ones, and on random circulant matrices; the deviation
    counts the matrices on which the two verdicts (circulant, condition met) disagree."""
    rng = np.random.default_rng(seed)
    offsets = np.arange(1, n)
    disagreements = 0
    for trial in range(trials):
        row, column = rng.standard_normal((2, n))  # f(0..n-1) and f(0, -1, ..., -(n-1))
        if trial % 3 == 1:
            column[1:] = row[n - offsets]  # f(-D') = f(n - D'): the wrapped copy
        matrix = scores.circulant(row) if trial % 3 == 2 else scores.toeplitz(np.r_[row[0], column[1:]], row)
        f_up, f_down = matrix[0, offsets], matrix[n - offsets, 0]  # f(D) and f(D - n)
        condition = bool(np.all(f_up == f_down))
        is_circulant = scores.circulant_deviation(matrix) == 0.0
        disagreements += condition != is_circulant
    return ClaimResult("Toeplitz S is circulant <=> f(D) = f(D - N) for D = 1..N-1", float(disagreements), 0.0)


def convolution_matrix(filter_weights, n: int) -> np.ndarray:
    """The ``n x n`` matrix of a zero-padded ("same") convolution layer with one input and one output
    channel, computed column by column: column ``c`` is the layer's output for the unit signal at ``c``.
    Like a convolution layer it cross-correlates, ``y_m = sum_k w_k x_(m + k - r)`` with ``r = len(w) // 2``,
    and reads zeros beyond both ends."""
    w = np.asarray(filter_weights, dtype=np.float64)
    return np.stack([np.correlate(np.eye(n)[c], w, mode="same") for c in range(n)], axis=1)


def convolution_is_banded_toeplitz(n: int = 16, width: int = 5, seed: int = 0) -> ClaimResult:
    """A zero-padded convolution layer's matrix is Toeplitz, ``T[m, n] = w(n - m + r)``, and zero off the band
    ``|n - m| <= r``; the deviation is the largest entry off that description."""
    w = np.random.default_rng(seed).standard_normal(width)
    matrix = convolution_matrix(w, n)
    r = width // 2
    m, c = np.indices((n, n))
    inside = np.abs(c - m) <= r
    expected = np.where(inside, w[np.clip(c - m + r, 0, width - 1)], 0.0)
    return _result(f"zero-padded convolution, filter of {width}: T[m, n] = w(n - m + {r}), 0 off the band",
                   matrix - expected)


def dynamic_ntk_forms(d: int = 128, factor: float = 8.0, original_context: int = 8192,
                      base: float = 500000.0, lengths=(1024, 4096, 8192, 16384, 65536, 131072)) -> ClaimResult:
    """Dynamic NTK in the paper's form (``s = max(1, L/L0)``) and in the reference code's
    (``s = factor * L/L0 - (factor - 1)``): the same ladder for ``L <= L0``; beyond, the slowest hand is
    divided by each form's ``s`` (relative deviations)."""
    from .scaling import dynamic_ntk

    theta = sinusoidal.frequencies(d, base)
    deviations = []
    for length in lengths:
        paper = dynamic_ntk(d, length, original_context, base)
        reference = dynamic_ntk(d, length, original_context, base, factor=factor)
        ratio = max(length, original_context) / original_context
        if length <= original_context:
            deviations.extend(reference / paper - 1)
        deviations += [theta[-1] / paper[-1] / ratio - 1,
                       theta[-1] / reference[-1] / (factor * ratio - (factor - 1)) - 1]
    return _result("dynamic NTK: reference form = paper form up to L0; slowest hand divided by each form's s",
                   deviations)


def yarn_forms_agree_outside_ramp(d: int = 128, factor: float = 8.0, original_context: int = 8192,
                                  base: float = 500000.0, beta_fast: float = 32.0,
                                  beta_slow: float = 1.0) -> ClaimResult:
    """YaRN's paper ramp (linear in the turns) and its reference code's (linear in the hand index, rounded
    bounds) give the same frequency on every hand up to ``low`` and from ``high`` on (relative deviations)."""
    from .scaling import yarn, yarn_correction_range, yarn_reference

    low, high = yarn_correction_range(d, original_context, base, beta_fast, beta_slow)
    paper = yarn(d, factor, original_context, base, alpha=beta_slow, beta=beta_fast)
    reference = yarn_reference(d, factor, original_context, base, beta_fast, beta_slow)
    outside = (np.arange(d // 2) <= low) | (np.arange(d // 2) >= high)
    return _result(f"YaRN: paper ramp = reference ramp on hands <= {low} and >= {high}",
                   reference[outside] / paper[outside] - 1)


# --- Chapter 10, the family: partial rotary, 2-D (axial) RoPE and M-RoPE (posenc.rotary_axes) ---


def partial_rotary_depends_on_offset(m: float, n: float, shift: float, d: int = 64, rotary_fraction: float = 0.25,
                                     seed: int = 0) -> ClaimResult:
    r"""The partial-RoPE score of ``q`` at ``m`` and ``k`` at ``n`` equals the score at ``m + shift``,
    ``n + shift``, and equals :math:`(q_{:r}^\top\Theta^{(r)}_{n-m}k_{:r} + q_{r:}^\top k_{r:})/\sqrt d` with
    :math:`r = \lfloor d\cdot\text{rotary\_fraction}\rfloor` (the right-hand side from ``rope_matrix``)."""
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((1, d)), rng.standard_normal((1, d))
    r = int(d * rotary_fraction)

    def score(a: float, b: float) -> float:
        q_a, k_b = (partial_rope(v, [p], rotary_fraction=rotary_fraction)[0] for v, p in ((q, a), (k, b)))
        return float(q_a @ k_b) / np.sqrt(d)

    relative = float(q[0, :r] @ rope_matrix(n - m, r) @ k[0, :r] + q[0, r:] @ k[0, r:]) / np.sqrt(d)
    return _result(f"partial RoPE, {r} of {d} dims turned: score(m, n) = score(m + s, n + s) "
                   "= q_r^T Theta_(n-m) k_r + q_rest . k_rest",
                   [score(m, n) - score(m + shift, n + shift), score(m, n) - relative],
                   np.sqrt(d) * angle_tolerance(m, n, shift))


def axial_scores_depend_on_2d_offset(d: int = 64, grid: int = 8, seed: int = 0) -> ClaimResult:
    """Over every pair of patches of a ``grid x grid`` image, the 2-D RoPE score of one query and one key
    vector depends only on the 2-D offset: the deviation is the largest distance of a score from the mean
    score of its offset (:func:`posenc.rotary_axes.grid_offset_deviation`)."""
    q, k = np.random.default_rng(seed).standard_normal((2, d))
    rows, cols = grid_positions(grid, grid)
    queries, keys = (axial_rope(np.tile(v, (grid * grid, 1)), rows, cols) for v in (q, k))
    return ClaimResult(f"2-D RoPE, {grid}x{grid} patches: score depends only on (r2 - r1, c2 - c1)",
                       grid_offset_deviation(queries @ keys.T / np.sqrt(d), rows, cols),
                       np.sqrt(d) * angle_tolerance(grid, grid))


def mrope_on_text_is_rope(seq: int = 16, d: int = 64, sections=(8, 12, 12), seed: int = 0) -> ClaimResult:
    """M-RoPE with three equal ids per token (text) is ``apply_rope``, bit for bit (tolerance 0)."""
    x = np.random.default_rng(seed).standard_normal((seq, d))
    ids = np.tile(np.arange(seq), (3, 1))
    return _result(f"M-RoPE with sections {tuple(sections)} and equal ids = RoPE", mrope(x, ids, sections)
                   - apply_rope(x), 0.0)


# --- Chapter 10, the family: relative scores (Shaw, Transformer-XL, T5), xPos, NoPE, tensor2tensor's table ---


def shaw_repeated_token_toeplitz(n: int = 12, d: int = 8, max_offset: int = 3, seed: int = 0) -> ClaimResult:
    """Shaw et al.'s scores of one repeated token are Toeplitz, and beyond the clipping distance ``K`` every
    entry on one side of the diagonal is the same (``S[m, n] = S[m, m + K]`` for ``n >= m + K``, likewise
    below); the deviation is the larger of the two departures."""
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((2, d))
    table = rng.standard_normal((2 * max_offset + 1, d))
    s = shaw_scores(np.tile(q, (n, 1)), np.tile(k, (n, 1)), table)
    offset = offsets(n)
    above, below = s[offset >= max_offset], s[offset <= -max_offset]
    spread = max(np.ptp(above) if above.size else 0.0, np.ptp(below) if below.size else 0.0)
    return _result(f"Shaw, K={max_offset}: repeated-token scores Toeplitz and constant beyond K",
                   [toeplitz_deviation(s), spread])


def _absolute_scores(x, w_q, w_k, base):
    """Scores of added sinusoidal positions, (W_Q (x_m + PE(m)))^T (W_K (x_n + PE(n))), unscaled."""
    e = x + sinusoidal.position_vectors(np.arange(len(x)), x.shape[1], base)
    return (e @ w_q.T) @ (e @ w_k.T).T


def transformer_xl_shift_invariant(n: int = 8, d: int = 8, d_model: int = 16, shift: int = 5, seed: int = 0,
                                   scheme: str = "transformer-xl") -> ClaimResult:
    """The same tokens moved ``shift`` positions later (other tokens put in front) get the same scores:
    Transformer-XL's four terms depend on positions only through ``n - m``. With ``scheme="absolute"`` the
    check runs on added sinusoidal positions (the expansion Transformer-XL starts from), where it fails."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d_model))
    before = np.vstack([rng.standard_normal((shift, d_model)), x])
    w_q, w_ke, w_kr = (rng.standard_normal((d, d_model)) / np.sqrt(d_model) for _ in range(3))
    u, v = rng.standard_normal((2, d))

    def scores_of(tokens):
        if scheme == "absolute":
            return _absolute_scores(tokens, w_q, w_ke, 10000.0)
        return sum(transformer_xl_terms(tokens, w_q, w_ke, w_kr, u, v).values())

    return _result(f"{scheme}: scores unchanged when the tokens move {shift} positions later",
                   scores_of(before)[shift:, shift:] - scores_of(x), 1e-12 * (1 + n + shift))


def t5_bias_toeplitz(n: int = 160, num_buckets: int = 32, max_distance: int = 128, bidirectional: bool = True,
                     seed: int = 0, bucket: str = "offset") -> ClaimResult:
    """T5's bias ``B[m, n] = beta[bucket(n - m)]`` (random ``beta``) has constant diagonals. With
    ``bucket="positions"`` the check runs on ``bucket(n) - bucket(m)``, the positions bucketed first, which is
    not a function of ``n - m`` (the buckets are not evenly spaced)."""
    options = {"bidirectional": bidirectional, "num_buckets": num_buckets, "max_distance": max_distance}
    if bucket == "positions":
        first = t5_bucket(-np.arange(n), **options)  # each position bucketed as its distance from the start
        matrix = np.subtract.outer(first, first).T.astype(np.float64)
    else:
        matrix = t5_bias(n, np.random.default_rng(seed).standard_normal(num_buckets), **options)
    return ClaimResult(f"T5 buckets of the {bucket}, {num_buckets} buckets up to {max_distance}: constant diagonals",
                       toeplitz_deviation(matrix), 0.0)


def xpos_scores_depend_on_offset(m: float, n: float, shift: float, d: int = 64, scale_base: float = 512.0,
                                 seed: int = 0, key_role: str = "key") -> ClaimResult:
    r"""The xPos score of ``q`` at ``m`` and ``k`` at ``n`` equals the score at ``m + shift``, ``n + shift``, and
    equals :math:`\sum_j \zeta_j^{(m-n)/B}\,q_{[j]}^\top R((n-m)\theta_j) k_{[j]}` (relative deviations). With
    ``key_role="query"`` the keys are scaled like the queries, by :math:`\zeta^{+n/B}`, and the check fails."""
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((2, 1, d))

    def score(a: float, b: float) -> float:
        return float(xpos(q, [a], scale_base=scale_base)[0] @ xpos(k, [b], role=key_role, scale_base=scale_base)[0])

    factors = np.repeat(xpos_zeta(d) ** ((m - n) / scale_base), 2)
    relative = float(q[0] @ (rope_matrix(n - m, d) * factors[:, None]) @ k[0])
    size = abs(relative) + 1.0
    sign = "-" if key_role == "key" else "+"
    return _result(f"xPos, keys scaled by zeta^({sign}n/B): score(m, n) = score(m + s, n + s) "
                   "= sum_j zeta_j^((m-n)/B) q_j^T R((n-m) theta_j) k_j",
                   np.array([score(m, n) - score(m + shift, n + shift), score(m, n) - relative]) / size,
                   float(angle_tolerance(m, n, shift) * np.sqrt(d)))


def causal_permutation_equivariance(n: int = 6, d: int = 8, seed: int = 0, causal: bool = True) -> ClaimResult:
    """Attention(PX) = P Attention(X) for one head with random weights and a random permutation, with a causal
    mask (``causal=True``, where it fails: the mask is tied to the positions) or without one (where it holds)."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d))
    w_q, w_k, w_v = (rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(3))
    order = rng.permutation(n)
    while np.array_equal(order, np.arange(n)) and n > 1:
        order = rng.permutation(n)
    mask = att.causal_mask(n) if causal else None

    def head(tokens):
        return att.attention(tokens @ w_q, tokens @ w_k, tokens @ w_v, mask)

    kind = "causal" if causal else "full"
    return _result(f"{kind} head: Attention(PX) = P Attention(X)", head(x[order]) - head(x)[order])


def causal_uniform_attention_averages(n: int = 8, d: int = 4, seed: int = 0) -> ClaimResult:
    """With equal scores (W_Q = 0) a causal head outputs at position m the plain average of the values
    v_0, ..., v_m: weight 1/(m + 1) on each, the same for every content."""
    rng = np.random.default_rng(seed)
    x, w_k, w_v = rng.standard_normal((n, d)), rng.standard_normal((d, d)), rng.standard_normal((d, d))
    out = att.attention(x @ np.zeros((d, d)), x @ w_k, x @ w_v, att.causal_mask(n))
    averages = np.cumsum(x @ w_v, axis=0) / np.arange(1, n + 1)[:, None]
    return _result("causal head with equal scores: output m = (v_0 + ... + v_m)/(m + 1)", out - averages)


def timing_signal_is_half_layout(n_positions: int = 64, d: int = 64, max_timescale: float = 10000.0) -> ClaimResult:
    """tensor2tensor's sin | cos table is the interleaved table of the same ladder with its coordinates
    permuted by ``interleaved_to_half``: coordinates j and j + d/2 hold sin and cos of the angle p theta'_j."""
    angles = np.outer(np.arange(n_positions), timing_frequencies(d, max_timescale))
    interleaved = np.empty((n_positions, d))
    interleaved[:, 0::2], interleaved[:, 1::2] = np.sin(angles), np.cos(angles)
    return _result(f"timing signal = interleaved table[:, interleaved_to_half({d})]",
                   timing_signal(n_positions, d, max_timescale) - interleaved[:, interleaved_to_half(d)])


# --- Chapter 4, why rotation: position maps whose scores see only the offset are powers of an orthogonal map ---


def position_maps_offset_only(maps) -> ClaimResult:
    """The scores of the position maps ``maps`` (shape ``(N, d, d)``, ``maps[m]`` = :math:`A_m`) depend only
    on :math:`n - m` for every query and key: :math:`A_m^\\top A_n = A_{m+1}^\\top A_{n+1}` for all
    :math:`m, n < N - 1` (:func:`posenc.geometry.offset_deviation`). Tolerance: float64 round-off of the
    :math:`N` products that make the maps, relative to their largest entry."""
    maps = np.asarray(maps, dtype=np.float64)
    scale = max(1.0, float(np.max(np.abs(maps), initial=0.0))) ** 2
    return ClaimResult(f"{len(maps)} position maps: A_m^T A_n depends only on n - m",
                       offset_deviation(maps), 1e-15 * len(maps) * maps.shape[-1] * scale)


def rotation_form_holds(a) -> ClaimResult:
    """The real spectral form of ``a``: with :math:`P`, the angles :math:`\\varphi_j` and the signs of
    :func:`posenc.geometry.rotation_form`, :math:`P^\\top P = I` and
    :math:`P^\\top A P = \\operatorname{diag}(R(\\varphi_1), \\ldots, R(\\varphi_r), \\pm 1, \\ldots)`, and the
    eigenvalues of :math:`A` are :math:`e^{\\pm i\\varphi_j}` and the signs (each computed eigenvalue within
    reach of one of these, and each of these of a computed eigenvalue). Holds for orthogonal ``a`` only."""
    a = np.asarray(a, dtype=np.float64)
    basis, angles, signs = rotation_form(a)
    rotations = 2 * len(angles)
    expected = np.zeros_like(a)
    expected[:rotations, :rotations] = block_diagonal_rotation(angles)
    expected[rotations:, rotations:] = np.diag(signs)
    predicted = np.concatenate([np.exp(1j * angles), np.exp(-1j * angles), signs])
    distances = np.abs(np.linalg.eigvals(a)[:, None] - predicted[None, :])
    deviations = [np.max(np.abs(basis.T @ basis - np.eye(len(a))), initial=0.0),
                  np.max(np.abs(basis.T @ a @ basis - expected), initial=0.0),
                  np.max(distances.min(axis=0), initial=0.0), np.max(distances.min(axis=1), initial=0.0)]
    # Round-off grows as an angle draws close to 0 or pi (see rotation_form's tol): 36,000 random orthogonal
    # matrices of widths 1 to 12 stayed below 1e-11 per dimension. A matrix that is not orthogonal misses by ~1.
    return _result(f"P^T A P = rotations of planes and +-1 entries, d={len(a)}", deviations, 1e-10 * max(1, len(a)))


# ---- Chapter 9's experiment: position interpolation is RoPE at scaled positions ----


def interpolation_is_scaled_positions(d: int = 16, factor: float = 2.0, base: float = 10000.0, n: int = 128,
                                      seed: int = 0, frequencies=None) -> ClaimResult:
    r"""RoPE with position interpolation's ladder :math:`\theta_j/s` at the positions :math:`m` turns every
    pair exactly as ordinary RoPE does at :math:`m/s`, for random vectors at the positions
    :math:`0, \ldots, n-1`. ``frequencies`` replaces the interpolated ladder (to see the check fail on one
    that is not :math:`\theta/s`, e.g. YaRN's)."""
    ladder = position_interpolation(d, factor, base) if frequencies is None else frequencies
    x = np.random.default_rng(seed).standard_normal((n, d))
    positions = np.arange(n, dtype=float)
    deviation = rope_with_ladder(x, ladder, positions) - apply_rope(x, positions / factor, base=base)
    ladder_name = f"theta/{factor:g}" if frequencies is None else "the given ladder"
    return _result(f"RoPE with {ladder_name} at m = RoPE at m/{factor:g}", deviation, angle_tolerance(n))


def untrained_rows_untouched(result) -> ClaimResult:
    """In the experiment (``result`` from :func:`posenc.extrapolation.run_experiment`), the learned table's
    rows past the training length end training exactly as they began."""
    return ClaimResult(f"learned table: rows >= {result.train_length} unchanged by training",
                       result.untrained_row_change, 0.0)


# --- Chapter 6, weights and the Fourier view: the profile as a trigonometric polynomial, reachable
# profiles, circulants diagonalised by the DFT ---


def offset_trig_polynomial(d: int = 64, n: int = 32, base: float = 10000.0, seed: int = 0,
                           swap: bool = False) -> ClaimResult:
    r"""The repeated-token score matrix is :math:`S_{m,n} = \operatorname{Re}\sum_j h_j e^{i(n-m)\theta_j}` with
    :math:`h_j = \overline{z_j(q)}z_j(k)/\sqrt d`. With ``swap`` the coefficients are built with the
    roles of ``q`` and ``k`` exchanged, which gives :math:`S_{n,m}` instead: a counterexample that fails."""
    q, k = np.random.default_rng(seed).standard_normal((2, d))
    h = fourier.offset_coefficients(k, q) if swap else fourier.offset_coefficients(q, k)
    polynomial = fourier.trig_polynomial(h, offsets(n), sinusoidal.frequencies(d, base))
    deviation = repeated_token_scores(q, k, n, base=base) - polynomial
    return _result("S[m, n] = Re sum_j h_j e^(i (n - m) theta_j)", deviation, np.sqrt(d) * angle_tolerance(n))


def reachable_profile(d: int = 16, n_offsets: int = 32, base: float = 10000.0, seed: int = 0,
                      in_span: bool = True) -> ClaimResult:
    r"""A target profile over the offsets :math:`-(N-1), \ldots, 0` is fitted by least squares over the
    :math:`h_j`, the fit is reached by a query and key (:func:`posenc.fourier.pair_for_coefficients`), and
    that head's actual RoPE scores are compared with the target (the fit keeps every direction numpy can
    resolve, ``rcond=None``). A target that is a trigonometric polynomial
    with the head's frequencies (``in_span``) is met to round-off; random values at more offsets than the
    head has real coefficients (``in_span=False``) are not: the check fails, as it must."""
    rng = np.random.default_rng(seed)
    theta, offsets = sinusoidal.frequencies(d, base), np.arange(1 - n_offsets, 1)
    if in_span:
        target = fourier.trig_polynomial(rng.standard_normal(d // 2) + 1j * rng.standard_normal(d // 2),
                                         offsets, theta)
    else:
        target = rng.standard_normal(n_offsets)
    q, k = fourier.pair_for_coefficients(fourier.fit_coefficients(offsets, target, theta, rcond=None))
    return _result("a head reaches every profile Re sum_j h_j e^(i Delta theta_j)",
                   scores.offset_scores(q, k, offsets, base=base) - target, 1e-9)


def dft_diagonalises_circulant(n: int = 8, seed: int = 0, wrap: bool = True) -> ClaimResult:
    r""":math:`C = F^*\operatorname{diag}(\lambda)F` for a circulant :math:`C` with a random first row, where
    :math:`F` is the unitary DFT matrix and :math:`\lambda` = ``numpy.fft.fft`` of the first column. With
    ``wrap=False`` the matrix is a random Toeplitz matrix that is not circulant, and the identity fails."""
    rng = np.random.default_rng(seed)
    row = rng.standard_normal(n)
    c = scores.circulant(row) if wrap else scores.toeplitz(rng.standard_normal(n), row)
    f = fourier.dft_matrix(n)
    rebuilt = f.conj().T @ np.diag(np.fft.fft(c[:, 0])) @ f
    return _result("C = F* diag(fft(first column)) F", rebuilt - c, 1e-12 * n)
