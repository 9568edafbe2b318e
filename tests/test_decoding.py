"""RoPE while generating: the cached scores are masked above the diagonal, and positions come from a padding mask
(that the cache gives the causal RoPE scores is checked on the page of chapter 8)."""

from __future__ import annotations

import numpy as np

from posenc.decoding import cached_decoding_scores, positions_from_mask


def test_cached_scores_are_masked_above_the_diagonal():
    scores, cache = cached_decoding_scores(np.ones((3, 4)), np.ones((3, 4)))
    assert np.all(np.isneginf(scores[np.triu_indices(3, 1)])) and np.all(np.isfinite(scores[np.tril_indices(3)]))
    assert cache.shape == (3, 4)


def test_positions_from_mask_count_real_tokens_only():
    np.testing.assert_array_equal(positions_from_mask([[0, 0, 1, 1, 1], [1, 1, 1, 1, 1], [1, 1, 1, 0, 0]]),
                                  [[0, 0, 0, 1, 2], [0, 1, 2, 3, 4], [0, 1, 2, 0, 0]])
