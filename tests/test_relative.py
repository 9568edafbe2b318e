"""Offsets in the score: Shaw's clipped table, Transformer-XL's four terms, and T5's buckets
(against Hugging Face's code, and the formula chapter 10 prints)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
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


@pytest.mark.parametrize(("bidirectional", "num_buckets", "max_distance"), T5_CONFIGS)
def test_t5_buckets_equal_hugging_faces(bidirectional, num_buckets, max_distance):
    offsets = np.arange(-3 * max_distance, 3 * max_distance + 1)
    ours = relative.t5_bucket(offsets, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance)
    theirs = T5Attention._relative_position_bucket(torch.tensor(offsets), bidirectional=bidirectional,
                                                   num_buckets=num_buckets, max_distance=max_distance).numpy()
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.verifies("thm-transformer-xl-offset")
@given(n=st.integers(2, 10), shift=st.integers(1, 40), seed=st.integers(0, 10_000))
def test_transformer_xl_scores_do_not_move_with_the_tokens(n, shift, seed):
    rng = np.random.default_rng(seed)
    x, before = rng.standard_normal((n, 16)), rng.standard_normal((shift, 16))  # tokens put in front move x later
    weights = [*rng.standard_normal((3, 8, 16)) / 4.0, *rng.standard_normal((2, 8))]  # W_Q, W_KE, W_KR, u, v

    def scores(tokens):
        return sum(relative.transformer_xl_terms(tokens, *weights).values())

    np.testing.assert_allclose(scores(np.vstack([before, x]))[shift:, shift:], scores(x), atol=1e-12 * (1 + n + shift))


def printed_t5_bucket(distance: int, nu: int, max_distance: int) -> float:
    """Equation eq-t5-bucket as chapter 10 prints it, with nu/2 (not nu // 2) and the logarithm in float32."""
    if distance < nu / 2:
        return distance
    spread = np.log(np.float32(distance) / np.float32(nu / 2)) / np.float32(np.log(max_distance / (nu / 2)))
    return min(nu - 1, nu / 2 + math.floor(spread * np.float32(nu / 2)))


@pytest.mark.parametrize("max_distance", [20, 40, 128])
@pytest.mark.parametrize("nu", [4, 8, 16, 32, 5, 9, 15])
def test_the_printed_bucket_formula_is_t5s_exactly_when_nu_is_even(nu, max_distance):
    distances = np.arange(3 * max_distance)
    code = relative.t5_bucket(-distances, bidirectional=False, num_buckets=nu, max_distance=max_distance)
    printed = [printed_t5_bucket(int(distance), nu, max_distance) for distance in distances]
    assert np.array_equal(code, printed) == (nu % 2 == 0)
