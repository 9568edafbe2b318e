"""The claims checked in chapter 8, *Serving RoPE*

The KV cache, left padding (what the pads' positions reach, and the offsets a padded prompt shows when
conventions mix), converting a checkpoint between layouts, integers in low precision, and what storing cosines
in bfloat16 costs.
"""

from __future__ import annotations

import numpy as np

from posenc import attention as att
from posenc import scores
from posenc.angle_tables import rotation_angles
from posenc.decoding import cached_decoding_scores, positions_from_mask
from posenc.precision import angles_in_precision, round_to
from posenc.rotary import apply_rope, interleaved_to_half, interleaved_to_half_rows, rope_matrix
from posenc.rotary_axes import partial_rope

from .result import TOL, ClaimResult, angle_tolerance, claim_result

SIGNIFICAND_BITS = {"bfloat16": 8, "float16": 11, "float32": 24}


def kv_cache_matches_recompute(n: int = 12, d: int = 16, seed: int = 0) -> ClaimResult:
    """Decoding token by token with a KV cache (each key rotated once, at its own position) gives the
    causal RoPE scores of recomputing everything, and the cached keys are the keys of the full pass."""
    q, k = np.random.default_rng(seed).standard_normal((2, n, d))
    cached, cache = cached_decoding_scores(q, k)
    full = scores.rope_scores(q, k)
    seen = att.causal_mask(n)
    return claim_result("KV cache: decoded scores = recomputed scores, cached keys unchanged",
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


def pads_reach_no_real_token(n_real: int = 5, n_pad: int = 3, d: int = 16, pad_position: float = 0,
                             seed: int = 0) -> ClaimResult:
    """A prompt padded on the left, its real tokens at their positions from the mask and every pad at
    ``pad_position`` (``positions_from_mask`` and transformers 5's ``generate`` give 0, transformers 4.x gave
    1), with the pads masked out as keys: each real token's scores, attention weights and output (random
    queries, keys and values, the pads' too) are those of the prompt alone. The pads' own query rows, which see
    no unmasked key, are left out."""
    rng = np.random.default_rng(seed)
    q, k, v = rng.standard_normal((3, n_pad + n_real, d))
    mask = np.r_[np.zeros(n_pad, int), np.ones(n_real, int)]
    positions = np.where(mask == 1, positions_from_mask(mask), pad_position)
    real = slice(n_pad, None)
    queries, keys = apply_rope(q, positions)[real], apply_rope(k, positions)
    weights = att.attention_weights(queries, keys, (att.causal_mask(n_pad + n_real) & mask.astype(bool))[real])
    queries_alone, keys_alone = apply_rope(q[real]), apply_rope(k[real])
    weights_alone = att.attention_weights(queries_alone, keys_alone, att.causal_mask(n_real))
    return claim_result(f"pads at position {pad_position:g}, masked: real tokens' scores, weights and outputs "
                        "= the prompt's alone",
                        np.concatenate([((queries @ keys.T)[:, real] - queries_alone @ keys_alone.T).ravel(),
                                        weights[:, :n_pad].ravel(), (weights[:, real] - weights_alone).ravel(),
                                        (weights @ v - weights_alone @ v[real]).ravel()]))


def layouts_are_one_rotation(n: int = 12, d: int = 16, base: float = 10000.0, seed: int = 0) -> ClaimResult:
    """rope_half(P x) = P rope_interleaved(x) for random x at positions 0..n-1, P the index array
    ``rotary.interleaved_to_half(d)``; rows are positions, columns coordinates."""
    x = np.random.default_rng(seed).standard_normal((n, d))
    p = interleaved_to_half(d)
    return claim_result("rope_half(P x) = P rope_interleaved(x)",
                        apply_rope(x[:, p], base=base, layout="half") - apply_rope(x, base=base)[:, p],
                        angle_tolerance(n))


def checkpoint_conversion(n_heads: int = 4, head_dim: int = 16, d_model: int = 32, n: int = 10, seed: int = 0,
                          n_kv_heads: int | None = None, bias: bool = False, rotary_fraction: float = 1.0,
                          qk_norm: bool = False, reorder_gains: bool = True) -> ClaimResult:
    r"""Permuting the rows of W_Q and W_K within each head (and the entries of the q and k biases with them)
    makes half-layout RoPE give the scores of interleaved RoPE with the original weights, in every head.

    Within a head the :math:`r` = ``int(head_dim * rotary_fraction)`` rotated rows are reordered by
    ``interleaved_to_half(r)`` and the rest stay in place (partial rotary, as
    :func:`posenc.rotary_axes.partial_rope` turns the first :math:`r` coordinates). With grouped-query
    attention (``n_kv_heads`` < ``n_heads``) W_K has ``n_kv_heads`` heads, each shared by
    ``n_heads // n_kv_heads`` query heads, and is permuted within them. With ``qk_norm`` every head's query
    and key :math:`u` become :math:`g \odot u / \operatorname{rms}(u)` before the rotation, with random gains
    :math:`g` for each head and coordinate, reordered with the rows; ``reorder_gains=False`` leaves them in
    place, and then the claim fails."""
    n_kv_heads = n_heads if n_kv_heads is None else n_kv_heads
    if n_heads % n_kv_heads:
        raise ValueError(f"checkpoint_conversion: n_heads ({n_heads}) must be a multiple of n_kv_heads ({n_kv_heads})")
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d_model))
    w_q = rng.standard_normal((n_heads * head_dim, d_model)) / np.sqrt(d_model)  # rows = outputs
    w_k = rng.standard_normal((n_kv_heads * head_dim, d_model)) / np.sqrt(d_model)
    b_q, b_k = (rng.standard_normal(len(w)) if bias else np.zeros(len(w)) for w in (w_q, w_k))
    g_q, g_k = (rng.uniform(0.5, 2.0, len(w)) if qk_norm else None for w in (w_q, w_k))
    r = int(head_dim * rotary_fraction)
    q_rows, k_rows = (interleaved_to_half_rows(heads, head_dim, r) for heads in (n_heads, n_kv_heads))

    def project(w, b, g):  # (heads, n, head_dim), after QK-norm when there are gains
        u = (x @ w.T + b).reshape(n, -1, head_dim)
        return (u if g is None else _qk_norm(u, g.reshape(-1, head_dim))).transpose(1, 0, 2)

    def head_scores(q, k, layout):
        shared_k = np.repeat(k, n_heads // n_kv_heads, axis=0)  # query head h reads K/V head h // group
        return scores.score_matrix(*(partial_rope(u, rotary_fraction=rotary_fraction, layout=layout)
                                     for u in (q, shared_k)))

    def reordered(g, rows):
        return g[rows] if g is not None and reorder_gains else g

    interleaved = head_scores(project(w_q, b_q, g_q), project(w_k, b_k, g_k), "interleaved")
    half = head_scores(project(w_q[q_rows], b_q[q_rows], reordered(g_q, q_rows)),
                       project(w_k[k_rows], b_k[k_rows], reordered(g_k, k_rows)), "half")
    gains_said = f", QK-norm gains {'' if reorder_gains else 'not '}permuted" if qk_norm else ""
    extras = (", biases" if bias else "") + gains_said
    return claim_result(f"{n_heads} query heads, {n_kv_heads} K/V heads, {r} of {head_dim} dims rotated{extras}: "
                        "half scores with permuted rows = interleaved scores", interleaved - half)


def _qk_norm(u: np.ndarray, gains: np.ndarray) -> np.ndarray:
    r"""QK-norm, :math:`g \odot u / \operatorname{rms}(u)`, of the vectors ``u`` (..., heads, head_dim), each head
    with its own ``gains`` (heads, head_dim)."""
    return gains * u / np.sqrt(np.mean(u**2, axis=-1, keepdims=True))


def next_token_offsets(n_real: int, n_pad: int) -> dict[str, np.ndarray]:
    """The offsets ``n - m`` (key minus query) at which the next token of a prompt of ``n_real`` tokens after
    ``n_pad`` pads sees the prompt's tokens, in order: ``"correct"`` with the keys and the query at their
    positions from the mask, ``"mixed"`` with the keys at their column index and the query at its position
    from the mask, ``n_real``."""
    positions = positions_from_mask(np.r_[np.zeros(n_pad, int), np.ones(n_real, int)])
    query = positions[-1] + 1
    return {"correct": positions[n_pad:] - query, "mixed": np.arange(n_pad, n_pad + n_real) - query}


def mixed_positions_see_offsets(n_real: int = 5, n_pad: int = 3, d: int = 64, seed: int = 0) -> ClaimResult:
    """With the keys rotated at their column index and the query at its position from the mask, the score of
    key ``n`` is the RoPE score of offset ``next_token_offsets(...)["mixed"][n]``, ``q^T Theta_D k_n / sqrt(d)``
    (the right-hand side from ``rope_matrix``)."""
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((1, d)), rng.standard_normal((n_real, d))
    mixed = apply_rope(q, [n_real]) @ apply_rope(k, np.arange(n_pad, n_pad + n_real)).T / np.sqrt(d)
    by_offset = [q[0] @ rope_matrix(offset, d) @ key / np.sqrt(d)
                 for offset, key in zip(next_token_offsets(n_real, n_pad)["mixed"], k, strict=True)]
    return claim_result("keys by column, query by mask: score of key n = q^T Theta_(D_n) k_n, D_n = column_n - "
                        f"{n_real}", mixed[0] - by_offset, angle_tolerance(n_pad + n_real) * np.sqrt(d))


def integers_exact_up_to(dtype: str) -> ClaimResult:
    """A float format with p significand bits (bfloat16: 8, float16: 11) holds every integer up to 2^p
    exactly, and not 2^p + 1; the deviation is the largest |round(m) - m| over m = 0..2^p, plus 1 if 2^p + 1
    were held."""
    bits = SIGNIFICAND_BITS[dtype]
    m = np.arange(2**bits + 2, dtype=np.float64)
    error = np.abs(round_to(m, dtype) - m)
    return ClaimResult(f"{dtype}: integers 0..{2**bits} exact, {2**bits + 1} not",
                       float(np.max(error[:-1]) + (error[-1] == 0)), 0.0)


def cosines_stored_in_bfloat16(d: int = 128, base: float = 500_000.0, context: int = 8192) -> ClaimResult:
    r"""Cosines of angles computed in float32, held in float32 and then rounded to bfloat16: at every position
    :math:`1 \le m <` ``context`` and on every hand, their error against float64 exceeds that of the float32
    cosines by at most half a bfloat16 step near 1, :math:`2^{-9}` (numbers in :math:`[1/2, 1)` lie
    :math:`2^{-8}` apart, with 8 significand bits); and at :math:`m = 1` their largest error is above the largest
    error of cosines (in float64) of angles computed in bfloat16, float16 or float32. The deviation is the larger
    excess over the bound or over the stored cosines' error at :math:`m = 1`."""
    positions = np.arange(1, context)
    exact = np.cos(rotation_angles(positions, d, base))
    errors = {dtype: np.abs(np.cos(angles_in_precision(positions, d, base, dtype)) - exact)
              for dtype in ("bfloat16", "float16", "float32")}
    in_float32 = round_to(np.cos(angles_in_precision(positions, d, base, "float32")), "float32")
    stored = np.abs(round_to(in_float32, "bfloat16") - exact)
    half_step = 2.0 ** -(SIGNIFICAND_BITS["bfloat16"] + 1)
    first = max(error[0].max() for error in errors.values()) - stored[0].max()
    return claim_result(f"cos of float32 angles stored in bfloat16, d={d}, base {base:g}: error <= float32's + 2^-9, "
                        "and at m = 1 above the angles' own in every format",
                        [max(float(np.max(stored - np.abs(in_float32 - exact))) - half_step, 0.0), max(first, 0.0)],
                        TOL)
