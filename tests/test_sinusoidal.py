"""The sinusoidal ladder: the table's definition and its two ends, the offset identity, the shift matrix M_k, the
lecture's similarity numbers, and the four terms of a score once positions are added to content."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc.scores import toeplitz_deviation
from posenc.sinusoidal import (
    added_encoding_score_terms,
    frequencies,
    position_vectors,
    shift_matrix,
    similarity,
    similarity_from_offset,
    similarity_inversions,
    sinusoidal_table,
    wavelengths,
)

even_d = st.integers(1, 64).map(lambda h: 2 * h)
position = st.integers(-5000, 5000)
small_even_d = st.integers(1, 32).map(lambda h: 2 * h)
bases = st.floats(2.0, 1e6)


def test_frequencies_follow_the_public_formula():
    d = 16
    np.testing.assert_allclose(frequencies(d), [10000.0 ** (-2 * j / d) for j in range(d // 2)], rtol=1e-15)
    assert frequencies(d).shape == (8,)
    np.testing.assert_allclose(frequencies(4, base=100.0), [1.0, 0.1])


def test_ladder_ends_one_radian_and_about_one_over_base():
    theta = frequencies(64)
    assert theta[0] == 1.0
    assert 1e-4 < theta[-1] < 1.4e-4
    np.testing.assert_allclose(theta[1:] / theta[:-1], theta[1] / theta[0])  # geometric
    np.testing.assert_allclose(wavelengths(64)[[0, -1]], 2 * np.pi / theta[[0, -1]])


def test_table_rows_interleave_sine_and_cosine():
    table = sinusoidal_table(50, 8)
    theta = frequencies(8)
    for p in (0, 1, 49):
        for j in range(4):
            assert table[p, 2 * j] == pytest.approx(np.sin(p * theta[j]), abs=1e-15)
            assert table[p, 2 * j + 1] == pytest.approx(np.cos(p * theta[j]), abs=1e-15)
    assert table.shape == (50, 8)


@given(p=st.integers(0, 3000), q=st.integers(0, 3000), shift=st.integers(0, 3000), d=even_d)
def test_shifting_both_positions_keeps_the_dot_product(p, q, shift, d):
    a = position_vectors([p, q], d)
    b = position_vectors([p + shift, q + shift], d)
    assert a[0] @ a[1] == pytest.approx(b[0] @ b[1], abs=1e-9)


@given(p=position, q=position, d=even_d)
def test_dot_product_of_two_positions_is_the_sum_of_cosines_of_their_offset(p, q, d):
    pe = position_vectors([p, q], d)
    assert pe[0] @ pe[1] == pytest.approx(np.sum(np.cos(frequencies(d) * (q - p))), abs=1e-9)


@given(k=st.integers(-500, 500), d=even_d)
def test_shift_matrix_is_a_rotation_and_composes(k, d):
    m = shift_matrix(k, d)
    np.testing.assert_allclose(m.T @ m, np.eye(d), atol=1e-12)
    np.testing.assert_allclose(shift_matrix(3, d) @ m, shift_matrix(k + 3, d), atol=1e-10)


@given(k=st.integers(-2000, 2000), d=even_d)
def test_shift_matrix_moves_every_position_by_k(k, d):
    shifted = sinusoidal_table(40, d) @ shift_matrix(k, d).T  # row p: M_k PE(p)
    np.testing.assert_allclose(shifted, position_vectors(np.arange(40) + k, d), atol=1e-9)


def test_shift_matrix_blocks_are_not_the_counter_clockwise_rotations():
    k, d = 5, 8
    block = shift_matrix(k, d)[:2, :2]
    c, s = np.cos(k * frequencies(d)[0]), np.sin(k * frequencies(d)[0])
    counter_clockwise = np.array([[c, -s], [s, c]])
    assert np.max(np.abs(block - counter_clockwise)) > 1.0  # the off-diagonal entries differ by 2 |sin 5| = 1.92


@pytest.mark.parametrize(("d", "lecture"), [(16, 0.936), (64, 0.966), (128, 0.970)])
def test_the_lecture_similarity_of_positions_12_and_13_is_reproduced(d, lecture):
    assert round(float(similarity(12, [13], d)[0] / (d / 2)), 3) == lecture


def test_the_lectures_theta_1_is_not_rung_1_at_d_64():
    theta = frequencies(64)
    assert round(float(theta[1]), 3) == 0.750
    assert int(np.argmin(np.abs(theta - 0.1))) == 8


@given(d=small_even_d, base=bases)
def test_ladder_runs_from_one_radian_down_by_a_fixed_factor(d, base):
    theta = frequencies(d, base)
    assert theta[0] == 1.0
    assert theta[-1] == pytest.approx(base ** (-(d - 2) / d), rel=1e-12)
    np.testing.assert_allclose(theta[1:] / theta[:-1], base ** (-2 / d), rtol=1e-12)
    lam = wavelengths(d, base)
    assert lam[0] == pytest.approx(2 * np.pi) and lam[-1] < 2 * np.pi * base


def test_similarity_curve_gets_bumpier_as_the_table_narrows():
    counts = [similarity_inversions(d, 48) for d in (16, 64, 128)]
    assert counts[0] > counts[1] > counts[2] > 0


@given(d=small_even_d, max_offset=st.integers(2, 40))
def test_similarity_inversions_count_farther_offsets_that_score_higher(d, max_offset):
    s = similarity_from_offset(np.arange(1, max_offset + 1), d)
    brute = sum(s[b] > s[a] for a in range(max_offset) for b in range(a + 1, max_offset))
    assert similarity_inversions(d, max_offset) == brute


@given(p=st.integers(0, 3000), shift=st.integers(1, 2000), d=small_even_d)
def test_similarity_curve_slides_with_the_position_without_changing_shape(p, shift, d):
    q = np.arange(40)
    curve = position_vectors(q + p, d) @ position_vectors([p], d)[0]
    moved = position_vectors(q + p + shift, d) @ position_vectors([p + shift], d)[0]
    np.testing.assert_allclose(moved, curve, atol=1e-9)


@given(d=small_even_d, seed=st.integers(0, 1000))
def test_length_of_content_plus_position_moves_with_the_position(d, seed):
    x = np.random.default_rng(seed).standard_normal(d)
    pe = sinusoidal_table(256, d)
    squared = np.sum((x + pe) ** 2, axis=1)
    np.testing.assert_allclose(squared, x @ x + 2 * pe @ x + d / 2, atol=1e-9)
    assert np.ptp(squared) > 0.1


def random_projection(d_model: int, d_head: int, seed: int):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(d_model)
    w_q, w_k = (rng.standard_normal((d_model, d_head)) / np.sqrt(d_model) for _ in range(2))
    return x, w_q, w_k


@given(d_model=small_even_d, seed=st.integers(0, 1000))
def test_for_a_repeated_token_the_cross_terms_depend_on_one_position_each(d_model, seed):
    x, w_q, w_k = random_projection(d_model, 8, seed)
    terms = added_encoding_score_terms(np.tile(x, (12, 1)), w_q, w_k)
    assert toeplitz_deviation(terms["content-content"]) == pytest.approx(0.0, abs=1e-12)
    np.testing.assert_allclose(terms["content-position"], terms["content-position"][[0]].repeat(12, 0), atol=1e-12)
    np.testing.assert_allclose(terms["position-content"], terms["position-content"][:, [0]].repeat(12, 1),
                               atol=1e-12)


@given(d_model=small_even_d, n=st.integers(2, 30))
def test_position_term_is_relative_when_the_projections_cancel(d_model, n):
    pe = sinusoidal_table(n, d_model)
    assert toeplitz_deviation(pe @ pe.T) < 1e-12


@given(seed=st.integers(0, 1000))
def test_added_encoding_scores_are_not_relative_with_random_weights(seed):
    x, w_q, w_k = random_projection(64, 16, seed)
    terms = added_encoding_score_terms(np.tile(x, (48, 1)), w_q, w_k)
    for name in ("content-position", "position-content", "position-position", "total"):
        assert toeplitz_deviation(terms[name]) > 0.05, name


@given(d_model=small_even_d, n=st.integers(2, 16), seed=st.integers(0, 1000))
def test_added_encoding_score_is_the_sum_of_its_four_terms(d_model, n, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d_model))
    w_q, w_k = rng.standard_normal((2, d_model, 8))
    added = x + sinusoidal_table(n, d_model)
    scores = (added @ w_q) @ (added @ w_k).T  # q_m . k_n from the projections themselves
    terms = added_encoding_score_terms(x, w_q, w_k)
    parts = sum(term for name, term in terms.items() if name != "total")  # the four terms
    np.testing.assert_allclose(parts, scores, atol=1e-9)
    np.testing.assert_allclose(terms["total"], scores, atol=1e-9)
