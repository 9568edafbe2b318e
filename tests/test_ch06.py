"""Chapter 6, *The score matrix is Toeplitz*: its claims, under many inputs: circulant and
Toeplitz, convolution layers, the score as a sinusoid and as a trigonometric polynomial of the offset,
the profiles a head can reach, and circulant matrices diagonalised by the DFT."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc import scores
from posenc.book.claims import ch06 as claims
from posenc.scores import circulant, toeplitz_deviation

seed = st.integers(0, 10_000)
even_d = st.integers(1, 32).map(lambda h: 2 * h)
speed = st.floats(1e-4, 3.2)
width = st.sampled_from([2, 4, 8, 16, 64])
base = st.sampled_from([100.0, 10_000.0, 500_000.0])


@given(n=st.integers(2, 24), d=even_d, seed=st.integers(0, 1000))
def test_repeated_token_gives_a_toeplitz_score_matrix(n, d, seed):
    assert claims.repeated_token_toeplitz(n, d, seed).holds


@given(first_row=st.lists(st.floats(-100, 100), min_size=1, max_size=12), seed=seed)
def test_circulant_matrices_are_toeplitz(first_row, seed):
    assert toeplitz_deviation(circulant(first_row)) == 0.0
    assert claims.circulant_is_toeplitz(n=len(first_row), seed=seed).holds


@given(n=st.integers(2, 9), seed=seed)
def test_a_toeplitz_matrix_is_circulant_exactly_when_its_diagonals_wrap(n, seed):
    assert claims.toeplitz_circulant_iff(n, trials=12, seed=seed).holds


@given(n=st.integers(6, 20), width=st.sampled_from([1, 3, 5]), seed=seed)
def test_a_zero_padded_convolution_layer_has_a_banded_toeplitz_matrix(n, width, seed):
    assert claims.convolution_is_banded_toeplitz(n, width, seed).holds


def test_convolution_matrix_computes_the_layer_and_is_not_circulant():
    w, n, r = np.array([0.5, -1.0, 2.0, 3.0, -0.25]), 9, 2
    x = np.random.default_rng(3).standard_normal(n)
    by_hand = [sum(w[k] * x[m + k - r] for k in range(w.size) if 0 <= m + k - r < n) for m in range(n)]
    matrix = claims.convolution_matrix(w, n)
    np.testing.assert_allclose(matrix @ x, by_hand, rtol=1e-13, atol=1e-13)
    assert scores.toeplitz_deviation(matrix) == 0.0 and scores.circulant_deviation(matrix) > 0.5


@given(n_positions=st.integers(2, 40), seed=seed)
def test_one_hand_making_one_turn_over_the_sequence_gives_circulant_scores(n_positions, seed):
    assert claims.single_hand_circulant(n_positions, seed).holds


@given(theta=speed, n_offsets=st.integers(1, 300), seed=seed)
def test_one_hand_scores_a_sinusoid_in_the_offset(theta, n_offsets, seed):
    assert claims.offset_sinusoid(theta, n_offsets, seed).holds


@given(d=width, n=st.integers(2, 24), b=base, seed=seed)
def test_the_score_matrix_is_the_trigonometric_polynomial_of_the_offset(d, n, b, seed):
    assert claims.offset_trig_polynomial(d=d, n=n, base=b, seed=seed).holds


@given(d=st.sampled_from([4, 16, 64]), seed=seed)
def test_the_polynomial_with_q_and_k_exchanged_fails_the_check(d, seed):
    assert not claims.offset_trig_polynomial(d=d, n=16, seed=seed, swap=True).holds


@given(d=st.sampled_from([4, 8, 16]), seed=seed)
def test_a_profile_in_the_span_is_reached_and_random_values_are_not(d, seed):
    assert claims.reachable_profile(d=d, n_offsets=4 * d, seed=seed).holds
    assert not claims.reachable_profile(d=d, n_offsets=4 * d, seed=seed, in_span=False).holds


@given(n=st.integers(1, 16), seed=seed)
def test_the_dft_diagonalises_a_circulant_matrix(n, seed):
    assert claims.dft_diagonalises_circulant(n=n, seed=seed).holds


@given(n=st.integers(3, 16), seed=seed)
def test_the_diagonalisation_fails_for_a_toeplitz_matrix_that_does_not_wrap(n, seed):
    assert not claims.dft_diagonalises_circulant(n=n, seed=seed, wrap=False).holds


@pytest.mark.parametrize("claim", [claims.circulant_is_toeplitz, claims.single_hand_circulant])
def test_the_chapter_defaults_hold(claim):
    assert claim().holds
