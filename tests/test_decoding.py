"""RoPE while generating: the scores a KV cache gives, and positions from a padding mask."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from posenc.decoding import cached_decoding_scores, positions_from_mask
from posenc.rotary import rope_matrix


def test_cached_scores_are_masked_above_the_diagonal():
    scores, cache = cached_decoding_scores(np.ones((3, 4)), np.ones((3, 4)))
    assert np.all(np.isneginf(scores[np.triu_indices(3, 1)])) and np.all(np.isfinite(scores[np.tril_indices(3)]))
    assert cache.shape == (3, 4)


@given(n=st.integers(1, 20), d=st.integers(1, 16).map(lambda h: 2 * h), seed=st.integers(0, 10_000))
def test_decoding_with_a_kv_cache_gives_the_causal_rope_scores_and_caches_each_key_turned_once(n, d, seed):
    q, k = np.random.default_rng(seed).standard_normal((2, n, d))
    scores, cache = cached_decoding_scores(q, k)
    turned_q, turned_k = (np.stack([rope_matrix(m, d) @ u[m] for m in range(n)]) for u in (q, k))  # Theta_m u_m
    seen = np.tril_indices(n)
    np.testing.assert_allclose(cache, turned_k, rtol=0, atol=1e-12)
    np.testing.assert_allclose(scores[seen], (turned_q @ turned_k.T / np.sqrt(d))[seen], rtol=0, atol=1e-12)


def test_positions_from_mask_count_real_tokens_only():
    np.testing.assert_array_equal(positions_from_mask([[0, 0, 1, 1, 1], [1, 1, 1, 1, 1], [1, 1, 1, 0, 0]]),
                                  [[0, 0, 0, 1, 2], [0, 1, 2, 3, 4], [0, 1, 2, 0, 0]])
