"""Offsets in the score: Shaw's clipped table, Transformer-XL's four terms, and T5's buckets
(against the published formula and Hugging Face's code)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from transformers.models.t5.modeling_t5 import T5Attention

from posenc import relative
from posenc.sinusoidal import position_vectors

T5_CONFIGS = [(bidirectional, buckets, distance) for bidirectional in (True, False) for buckets in (8, 16, 32, 64)
              for distance in (16, 32, 128, 1000) if distance > (buckets // 2 if bidirectional else buckets) // 2]


def test_shaw_scores_match_the_formula_entry_by_entry():
    rng = np.random.default_rng(0)
    n, d, c = 7, 4, 2
    q, k, table = rng.standard_normal((n, d)), rng.standard_normal((n, d)), rng.standard_normal((2 * c + 1, d))
    by_hand = [[q[m] @ (k[j] + table[min(max(j - m, -c), c) + c]) / 2.0 for j in range(n)] for m in range(n)]
    np.testing.assert_allclose(relative.shaw_scores(q, k, table), by_hand, rtol=1e-13, atol=1e-13)


def test_transformer_xl_terms_match_the_papers_formula():
    rng = np.random.default_rng(1)
    n, d, d_model = 5, 4, 6
    x = rng.standard_normal((n, d_model))
    w_q, w_ke, w_kr = rng.standard_normal((3, d, d_model))
    u, v = rng.standard_normal((2, d))
    terms = relative.transformer_xl_terms(x, w_q, w_ke, w_kr, u, v)
    for m in range(n):
        for j in range(n):
            r = position_vectors([m - j], d_model)[0]  # R_(i-j), query minus key
            expected = (x[m] @ w_q.T @ w_ke @ x[j] + x[m] @ w_q.T @ w_kr @ r + u @ w_ke @ x[j] + v @ w_kr @ r)
            assert sum(t[m, j] for t in terms.values()) == pytest.approx(expected, rel=1e-12, abs=1e-12)


def published_bucket(offset: int, bidirectional: bool, num_buckets: int, max_distance: int) -> int:
    """The T5 bucket of one offset (key minus query), restated from the paper's code line by line, with
    the logarithm in float32 as there."""
    bucket = 0
    if bidirectional:
        num_buckets //= 2
        bucket = num_buckets if offset > 0 else 0
        distance = abs(offset)
    else:
        distance = max(-offset, 0)
    exact = num_buckets // 2
    if distance < exact:
        return bucket + distance
    spread = np.log(np.float32(distance) / np.float32(exact)) / np.float32(np.log(max_distance / exact))
    return bucket + min(exact + int(spread * np.float32(num_buckets - exact)), num_buckets - 1)


@pytest.mark.parametrize(("bidirectional", "num_buckets", "max_distance"), T5_CONFIGS)
def test_t5_buckets_equal_hugging_faces_and_the_published_formula(bidirectional, num_buckets, max_distance):
    offsets = np.arange(-3 * max_distance, 3 * max_distance + 1)
    ours = relative.t5_bucket(offsets, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance)
    theirs = T5Attention._relative_position_bucket(torch.tensor(offsets), bidirectional=bidirectional,
                                                   num_buckets=num_buckets, max_distance=max_distance).numpy()
    np.testing.assert_array_equal(ours, theirs)
    restated = [published_bucket(int(o), bidirectional, num_buckets, max_distance) for o in offsets[::7]]
    np.testing.assert_array_equal(ours[::7], restated)


@pytest.mark.parametrize(("bidirectional", "num_buckets", "max_distance"), T5_CONFIGS)
def test_t5_buckets_grow_with_distance_and_stop_at_max_distance(bidirectional, num_buckets, max_distance):
    options = {"bidirectional": bidirectional, "num_buckets": num_buckets, "max_distance": max_distance}
    behind = relative.t5_bucket(-np.arange(4 * max_distance), **options)
    assert np.all(np.diff(behind) >= 0) and behind.min() == 0 and behind.max() < num_buckets
    assert np.all(behind[max_distance:] == behind[-1])
    ahead = relative.t5_bucket(np.arange(1, 100), **options)
    assert np.all(ahead == 0) if not bidirectional else np.all(ahead >= num_buckets // 2)
