"""Score matrices: the score profile over offsets and the softmax weights of the last query (pairs slid along the
sequence are checked on the page of chapter 4; Toeplitz and circulant verdicts and one hand's wave on that of
chapter 6)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc import fourier, scores
from posenc.attention import softmax
from posenc.rotary import rope_matrix
from posenc.sinusoidal import frequencies

seed = st.integers(0, 10_000)
head_width = st.sampled_from([2, 4, 8, 16, 64])
base = st.sampled_from([100.0, 10_000.0, 500_000.0])


def test_the_exercises_circular_convolution_is_the_chapters_circulant_with_the_filter_reversed():
    # exercise: C[i, j] = w((i - j) mod n); chapter: C[m, n] = c((n - m) mod N) with c(D) = w(-D mod N)
    w = np.random.default_rng(1).standard_normal(7)
    n = w.size
    exercise = np.array([[w[(i - j) % n] for j in range(n)] for i in range(n)])
    np.testing.assert_array_equal(exercise, scores.circulant(w[(-np.arange(n)) % n]))


@given(d=head_width, b=base, seed=seed)
def test_offset_scores_are_the_rows_of_the_rope_score_matrix(d, b, seed):
    q, k = np.random.default_rng(seed).standard_normal((2, d))
    s = scores.repeated_token_scores(q, k, 12, base=b)
    m = 11
    np.testing.assert_allclose(scores.offset_scores(q, k, np.arange(12) - m, base=b), s[m], atol=1e-12)
    np.testing.assert_allclose(fourier.trig_polynomial(fourier.offset_coefficients(q, k), np.arange(12) - m,
                                                       frequencies(d, b)), s[m], atol=1e-12)


@given(d=head_width, n=st.integers(1, 40), b=base, seed=seed)
def test_last_query_weights_are_the_softmax_of_the_profile_over_the_visible_offsets(d, n, b, seed):
    q, k = np.random.default_rng(seed).standard_normal((2, d))
    weights = scores.last_query_weights(q, k, n, base=b)
    np.testing.assert_allclose(weights, softmax(scores.offset_scores(q, k, np.arange(1 - n, 1), base=b)), atol=1e-12)
    assert weights.sum() == pytest.approx(1.0)


@given(d=st.sampled_from([8, 16, 64, 128]), b=base, seed=seed)
def test_a_key_turned_three_positions_forward_and_long_vectors_look_three_back(d, b, seed):
    q = np.random.default_rng(seed).standard_normal(d)
    q = 12.0 * q / np.linalg.norm(q) * np.sqrt(d / 2)
    weights = scores.last_query_weights(q, rope_matrix(3, d, b) @ q, 32, base=b)
    assert np.argmax(weights) == 28
    short = q / np.linalg.norm(q)
    assert scores.last_query_weights(short, rope_matrix(3, d, b) @ short, 32, base=b)[28] < 0.9
