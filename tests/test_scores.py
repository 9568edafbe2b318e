"""Score matrices and their structure: Toeplitz and circulant tests, repeated tokens, one hand of the clock,
pairs shifted together, the score profile over offsets and the softmax weights of the last query."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc import clock, fourier, scores
from posenc.attention import softmax
from posenc.geometry import matrix_powers, random_orthogonal, rotation_2d
from posenc.rotary import rope_matrix
from posenc.scores import (
    additive_pair_scores,
    circulant,
    circulant_deviation,
    plane_score_from_offset,
    plane_scores,
    repeated_token_scores,
    score_matrix,
    shifted_pair_scores,
    toeplitz,
    toeplitz_deviation,
)
from posenc.sinusoidal import frequencies

row = st.lists(st.integers(-9, 9), min_size=2, max_size=8)
seed = st.integers(0, 10_000)
even_d = st.integers(1, 32).map(lambda h: 2 * h)
speed = st.floats(1e-4, 3.2)
width = st.integers(1, 12)
n_positions = st.integers(2, 40)
head_width = st.sampled_from([2, 4, 8, 16, 64])
base = st.sampled_from([100.0, 10_000.0, 500_000.0])


@given(first=row)
def test_every_circulant_matrix_is_toeplitz(first):
    c = circulant(first)
    assert toeplitz_deviation(c) == 0.0
    assert circulant_deviation(c) == 0.0


def test_a_toeplitz_matrix_need_not_be_circulant():
    t = toeplitz([1, 2, 3], [1, 4, 5])
    assert toeplitz_deviation(t) == 0.0
    assert circulant_deviation(t) > 0


def test_repeated_token_scores_have_constant_diagonals_and_q_dot_k_on_the_main_one():
    q, k = np.random.default_rng(3).standard_normal((2, 16))
    s = repeated_token_scores(q, k, 12)
    assert toeplitz_deviation(s) < 1e-12
    np.testing.assert_allclose(np.diag(s), q @ k / 4)  # offset 0: no rotation left, q.k/sqrt(16)


def test_random_scores_are_not_toeplitz():
    assert toeplitz_deviation(np.random.default_rng(0).standard_normal((5, 5))) > 0.1


def test_the_printed_toeplitz_example_is_not_circulant():
    t = toeplitz([1, 5, 6, 7], [1, 2, 3, 4])
    assert toeplitz_deviation(t) == 0.0 and circulant_deviation(t) == 5.0


def test_the_iff_check_sees_both_verdicts():
    # a Toeplitz matrix whose wrapped diagonals differ is not circulant; copying them makes it circulant
    row = np.array([1.0, 2.0, 3.0, 4.0])
    broken = scores.toeplitz([1.0, 5.0, 6.0, 7.0], row)
    wrapped = scores.toeplitz([1.0, 4.0, 3.0, 2.0], row)  # f(-D) = f(N - D)
    assert scores.circulant_deviation(broken) > 0 and scores.circulant_deviation(wrapped) == 0
    np.testing.assert_array_equal(wrapped, scores.circulant(row))


def test_the_exercises_circular_convolution_is_the_chapters_circulant_with_the_filter_reversed():
    # exercise: C[i, j] = w((i - j) mod n); chapter: C[m, n] = c((n - m) mod N) with c(D) = w(-D mod N)
    w = np.random.default_rng(1).standard_normal(7)
    n = w.size
    exercise = np.array([[w[(i - j) % n] for j in range(n)] for i in range(n)])
    np.testing.assert_array_equal(exercise, scores.circulant(w[(-np.arange(n)) % n]))


@given(seed=st.integers(0, 1000))
def test_rope_scores_of_the_same_token_and_weights_are_relative(seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(64)
    w_q, w_k = (rng.standard_normal((64, 16)) / np.sqrt(64) for _ in range(2))
    assert toeplitz_deviation(repeated_token_scores(x @ w_q, x @ w_k, 48)) < 1e-10


@given(seed, width, n_positions)
def test_the_score_matrix_of_orthogonal_powers_is_toeplitz_for_any_query_and_key(s, d, n):
    maps = matrix_powers(random_orthogonal(d, seed=s), n)
    q, k = np.random.default_rng(s).standard_normal((2, d))
    assert toeplitz_deviation(score_matrix(maps @ q, maps @ k)) < 1e-13 * n * d


@given(m=st.integers(0, 5000), n=st.integers(0, 5000), d=even_d, seed=seed)
def test_shifting_query_and_key_together_leaves_the_rope_score_unchanged(m, n, d, seed):
    q, k = np.random.default_rng(seed).standard_normal((2, d))
    scores = shifted_pair_scores(q, k, m, n, np.arange(0, 3000, 97))
    assert np.ptp(scores) <= 1e-12 * (1 + m + n + 3000) * np.sqrt(d)


def test_added_position_vectors_make_the_score_move_with_the_shift():
    q, k = np.random.default_rng(4).standard_normal((2, 64))
    assert np.ptp(additive_pair_scores(q, k, 2, 5, np.arange(512))) > 1.0


def test_one_hand_turning_one_radian_is_toeplitz_but_not_circulant():
    q, k = np.random.default_rng(2).standard_normal((2, 2))
    s = plane_scores(q, k, 8, 1.0)
    assert toeplitz_deviation(s) < 1e-14 and circulant_deviation(s) > 1.0


@given(n=n_positions, seed=seed)
def test_one_hand_turning_once_over_the_sequence_scores_a_circulant_matrix(n, seed):
    q, k = np.random.default_rng(seed).standard_normal((2, 2))
    assert circulant_deviation(plane_scores(q, k, n, 2 * np.pi / n)) < 1e-13 * (1 + q @ q + k @ k)


@given(theta=speed, seed=seed)
def test_one_hands_score_is_the_query_against_the_key_turned_by_the_offset(theta, seed):
    q, k = np.random.default_rng(seed).standard_normal((2, 2))
    offsets = np.arange(-300, 301)
    turned = np.einsum("i,ijs,j->s", q, rotation_2d(offsets * theta), k) / np.sqrt(2)  # q^T R(D theta) k / sqrt(2)
    tolerance = 1e-12 * (1 + q @ q + k @ k)  # round-off of angles up to about 1,000 radians
    np.testing.assert_allclose(plane_score_from_offset(q, k, offsets, theta), turned, rtol=0, atol=tolerance)


@given(theta=speed, period=st.integers(1, 1000), seed=seed)
def test_offsets_nearly_a_turn_apart_score_nearly_alike(theta, period, seed):
    q, k = np.random.default_rng(seed).standard_normal((2, 2))
    offsets = np.arange(-200, 201)
    later, now = (plane_score_from_offset(q, k, offsets + p, theta) for p in (period, 0))
    change = np.abs(later - now)
    amplitude = np.linalg.norm(q) * np.linalg.norm(k) / np.sqrt(2)
    assert change.max() <= amplitude * float(clock.angular_distance(period * theta, 0.0)) + 1e-9


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


@given(d=st.sampled_from([4, 8, 64]), b=base, seed=seed)
def test_a_rope_head_does_not_wrap_over_its_context(d, b, seed):
    q, k = np.random.default_rng(seed).standard_normal((2, d))
    assert scores.circulant_deviation(scores.repeated_token_scores(q, k, 16, base=b)) > 1e-6
