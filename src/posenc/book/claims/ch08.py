"""The claims checked in chapter 8, *Serving RoPE*

The KV cache, left padding, converting a checkpoint between layouts, and integers in low precision.
"""

from __future__ import annotations

import numpy as np

from posenc import attention as att
from posenc import scores
from posenc.decoding import cached_decoding_scores, positions_from_mask
from posenc.precision import round_to
from posenc.rotary import apply_rope, interleaved_to_half_rows

from .result import ClaimResult, claim_result


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

    return claim_result("interleaved scores with W = half scores with permuted rows of W",
                        head_scores(w_q, w_k, "interleaved") - head_scores(w_q[rows], w_k[rows], "half"))


def integers_exact_up_to(dtype: str) -> ClaimResult:
    """A float format with p significand bits (bfloat16: 8, float16: 11) holds every integer up to 2^p
    exactly; the deviation is the largest |round(m) - m| over m = 0..2^p."""
    bits = {"bfloat16": 8, "float16": 11, "float32": 24}[dtype]
    m = np.arange(2**bits + 1, dtype=np.float64)
    return ClaimResult(f"{dtype}: integers 0..{2**bits} exact", float(np.max(np.abs(round_to(m, dtype) - m))), 0.0)
