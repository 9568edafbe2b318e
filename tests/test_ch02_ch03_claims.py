"""The claims of chapters 2 and 3: learned rows are unrelated, the sinusoidal ladder and its similarity curve,
and the catch once position vectors are added to content and projected."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc import claims
from posenc.scores import repeated_token_scores, toeplitz_deviation
from posenc.sinusoidal import (
    added_encoding_score_terms,
    frequencies,
    position_vectors,
    similarity_from_offset,
    similarity_inversions,
    sinusoidal_table,
    wavelengths,
)

even_d = st.integers(1, 32).map(lambda h: 2 * h)
bases = st.floats(2.0, 1e6)


def random_projection(d_model: int, d_head: int, seed: int):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(d_model)
    w_q, w_k = (rng.standard_normal((d_model, d_head)) / np.sqrt(d_model) for _ in range(2))
    return x, w_q, w_k


@given(d=even_d, base=bases)
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


@given(d=even_d, max_offset=st.integers(2, 40))
def test_similarity_inversions_count_farther_offsets_that_score_higher(d, max_offset):
    s = similarity_from_offset(np.arange(1, max_offset + 1), d)
    brute = sum(s[b] > s[a] for a in range(max_offset) for b in range(a + 1, max_offset))
    assert similarity_inversions(d, max_offset) == brute


@given(p=st.integers(0, 3000), shift=st.integers(1, 2000), d=even_d)
def test_similarity_curve_slides_with_the_position_without_changing_shape(p, shift, d):
    q = np.arange(40)
    curve = position_vectors(q + p, d) @ position_vectors([p], d)[0]
    moved = position_vectors(q + p + shift, d) @ position_vectors([p + shift], d)[0]
    np.testing.assert_allclose(moved, curve, atol=1e-9)


@given(n=st.integers(2, 16), d_model=even_d, seed=st.integers(0, 1000))
def test_added_encoding_score_is_the_sum_of_its_four_terms(n, d_model, seed):
    assert claims.added_encoding_expansion(n, d_model, seed).holds


@given(d_model=even_d, seed=st.integers(0, 1000))
def test_for_a_repeated_token_the_cross_terms_depend_on_one_position_each(d_model, seed):
    x, w_q, w_k = random_projection(d_model, 8, seed)
    terms = added_encoding_score_terms(np.tile(x, (12, 1)), w_q, w_k)
    assert toeplitz_deviation(terms["content-content"]) == pytest.approx(0.0, abs=1e-12)
    np.testing.assert_allclose(terms["content-position"], terms["content-position"][[0]].repeat(12, 0), atol=1e-12)
    np.testing.assert_allclose(terms["position-content"], terms["position-content"][:, [0]].repeat(12, 1),
                               atol=1e-12)


@given(d_model=even_d, n=st.integers(2, 30))
def test_position_term_is_relative_when_the_projections_cancel(d_model, n):
    pe = sinusoidal_table(n, d_model)
    assert toeplitz_deviation(pe @ pe.T) < 1e-12


@given(seed=st.integers(0, 1000))
def test_added_encoding_scores_are_not_relative_with_random_weights(seed):
    x, w_q, w_k = random_projection(64, 16, seed)
    terms = added_encoding_score_terms(np.tile(x, (48, 1)), w_q, w_k)
    for name in ("content-position", "position-content", "position-position", "total"):
        assert toeplitz_deviation(terms[name]) > 0.05, name


@given(seed=st.integers(0, 1000))
def test_rope_scores_of_the_same_token_and_weights_are_relative(seed):
    x, w_q, w_k = random_projection(64, 16, seed)
    assert toeplitz_deviation(repeated_token_scores(x @ w_q, x @ w_k, 48)) < 1e-10


@given(p=st.integers(0, 10), q=st.integers(0, 10), far=st.integers(1000, 20000), d=even_d)
def test_far_positions_obey_the_same_identity_as_near_ones(p, q, far, d):
    near, distant = position_vectors([p, q], d), position_vectors([p + far, q + far], d)
    assert near[0] @ near[1] == pytest.approx(distant[0] @ distant[1], abs=1e-9)
    assert claims.sinusoidal_offset(p + far, [q + far], d).holds


@given(d=even_d, seed=st.integers(0, 1000))
def test_length_of_content_plus_position_moves_with_the_position(d, seed):
    x = np.random.default_rng(seed).standard_normal(d)
    pe = sinusoidal_table(200, d)
    squared = np.sum((x + pe) ** 2, axis=1)
    np.testing.assert_allclose(squared, x @ x + 2 * pe @ x + d / 2, atol=1e-9)
    assert np.ptp(squared) > 0.1


def test_learned_rows_are_unrelated_and_their_scores_not_relative():
    rows = np.random.default_rng(0).standard_normal((1024, 32))  # what a freshly initialised table holds
    unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)
    cosines = np.delete(unit @ unit[100], 100)
    assert np.sqrt(np.mean(cosines ** 2)) == pytest.approx(1 / np.sqrt(32), rel=0.1)
    assert abs(cosines[100]) < 0.5  # row 101: a neighbour, yet no closer than chance
    assert toeplitz_deviation(rows[:64] @ rows[:64].T) > 10
