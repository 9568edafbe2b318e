"""Chapter 6, *The score matrix is Toeplitz*: its claims, under many inputs: Toeplitz scores and causal weights
that are not, circulant and Toeplitz, convolution layers and their padding, the score as a sinusoid and as a
trigonometric polynomial of the offset, the profiles a head can reach, circulant matrices diagonalised by the DFT,
and the softmax of a profile: the gap that buys a share of the weight, and the tie that no length breaks."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc import scores
from posenc.book.claims import ch06 as claims
from posenc.rotary import rope_matrix
from posenc.scores import circulant, toeplitz_deviation

seed = st.integers(0, 10_000)
even_d = st.integers(1, 32).map(lambda h: 2 * h)
speed = st.floats(1e-4, 3.2)
width = st.sampled_from([2, 4, 8, 16, 64])
base = st.sampled_from([100.0, 10_000.0, 500_000.0])


@given(n=st.integers(2, 24), d=even_d, seed=st.integers(0, 1000))
def test_repeated_token_gives_a_toeplitz_score_matrix(n, d, seed):
    assert claims.repeated_token_toeplitz(n, d, seed).holds


@given(n=st.integers(2, 24), d=even_d, seed=st.integers(0, 1000))
def test_the_causal_softmax_weights_of_the_same_scores_are_not_toeplitz(n, d, seed):
    assert claims.repeated_token_toeplitz(n, d, seed).holds
    weights = claims.causal_weights_toeplitz(n, d, seed)
    q, k = np.random.default_rng(seed).standard_normal((2, d))
    behind, own = scores.offset_scores(q, k, [-1, 0])
    own_weight_in_row_1 = 1.0 / (1.0 + math.exp(behind - own))  # row 0 gives its one key all the weight
    assert not weights.holds and weights.max_deviation >= 1.0 - own_weight_in_row_1 - 1e-12


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


@given(n=st.integers(5, 20), width=st.sampled_from([1, 3, 5]), seed=seed)
def test_a_circularly_padded_convolution_layer_has_a_circulant_matrix(n, width, seed):
    assert claims.circular_convolution_is_circulant(n, width, seed).holds


@pytest.mark.parametrize("padding", ["zeros", "circular"])
def test_convolution_matrix_is_the_matrix_of_torch_conv1d_with_that_padding(padding):
    torch = pytest.importorskip("torch")
    w, n = np.array([0.5, -1.0, 2.0, 3.0, -0.25]), 9
    layer = torch.nn.Conv1d(1, 1, w.size, padding=w.size // 2, padding_mode=padding, bias=False).double()
    with torch.no_grad():
        layer.weight.copy_(torch.from_numpy(w).view(1, 1, -1))
        columns = layer(torch.eye(n, dtype=torch.float64)[:, None, :])[:, 0, :].numpy().T  # column c: unit at c
    np.testing.assert_allclose(claims.convolution_matrix(w, n, padding=padding), columns, rtol=0, atol=1e-14)


def test_convolution_matrix_refuses_an_even_filter_and_an_unknown_padding():
    with pytest.raises(ValueError, match="odd number of weights"):
        claims.convolution_matrix([1.0, 2.0], 5)
    with pytest.raises(ValueError, match="padding must be one of"):
        claims.convolution_matrix([1.0, 2.0, 3.0], 5, padding="reflect")


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


@given(n=st.integers(2, 64), above_even=st.floats(0.01, 0.999), seed=seed)
def test_a_score_gap_guarantees_a_share_of_the_weight_and_no_smaller_gap_does(n, above_even, seed):
    weight = 1.0 / n + above_even * (1.0 - 1.0 / n)  # above the share 1/n of equal scores: a positive gap is needed
    assert claims.gap_guarantees_weight(n, weight, d=16, trials=5, seed=seed).holds
    assert not claims.gap_guarantees_weight(n, weight, d=16, trials=5, seed=seed, gap_factor=0.9).holds


@given(n=st.integers(2, 64), weight=st.floats(0.01, 0.99))
def test_the_gap_for_a_weight_gives_exactly_that_weight_when_every_other_key_sits_at_the_gap(n, weight):
    gap = claims.gap_for_weight(n, weight)
    assert math.isclose(1.0 / (1.0 + (n - 1) * math.exp(-gap)), weight, rel_tol=1e-12)


def test_gap_for_weight_refuses_a_weight_outside_0_1_and_a_single_key():
    for bad in (0.0, 1.0, 1.5):
        with pytest.raises(ValueError):
            claims.gap_for_weight(8, bad)
    with pytest.raises(ValueError):
        claims.gap_for_weight(1, 0.5)
    with pytest.raises(ValueError, match="between 1/n and 1"):
        claims.gap_guarantees_weight(n=4, weight=0.25)


def test_score_gap_is_the_margin_over_the_highest_other_entry():
    assert claims.score_gap([1.0, 4.0, 2.5, -3.0], 1) == 1.5
    assert claims.score_gap([1.0, 4.0, 2.5, -3.0], 2) == -1.5


@given(seed=seed)
def test_two_tied_peaks_keep_at_most_half_the_weight_and_a_unique_peak_takes_more(seed):
    assert claims.tied_peak_weight(seed=seed).holds
    assert not claims.tied_peak_weight(seed=seed, tie=False).holds


def test_the_tied_profile_is_symmetric_about_the_middle_of_the_two_offsets():
    q = np.random.default_rng(5).standard_normal(16)
    k = (rope_matrix(3, 16) + rope_matrix(4, 16)) @ q
    profile = scores.offset_scores(q, k, np.arange(-12, 6))  # offsets -12..5, mirrored about -3.5
    np.testing.assert_allclose(profile, profile[::-1], atol=1e-12)


@pytest.mark.parametrize("claim", [claims.circulant_is_toeplitz, claims.single_hand_circulant])
def test_the_chapter_defaults_hold(claim):
    assert claim().holds


def test_the_chapter_measures_against_the_bar_of_the_exercise_look_three_back():
    """The chapter's share and context are the ones the exercise's test demands, so the text's "the bar of the
    exercise" stays true when either changes."""
    root = Path(__file__).resolve().parents[1]
    chapter = (root / "chapters" / "06_toeplitz_scores.ipynb").read_text()
    context, share = re.search(r"LOOKBACK_CONTEXT, LOOKBACK_WEIGHT = (\d+), ([\d.]+)", chapter).groups()
    exercise = (root / "exercises" / "source" / "ch06_toeplitz" / "toeplitz.ipynb").read_text()
    assert f"last_query_weights(q, k, {context}, base=base)" in exercise
    assert f"if weights[-4] >= {share}:" in exercise


@given(n=st.integers(2, 32), seed=seed)
def test_a_circulant_matrix_scales_each_wave_by_its_eigenvalue(n, seed):
    assert claims.circulant_filters_waves(n, seed).holds


@given(lag=st.integers(1, 800), theta=st.floats(0.01, 3.1), seed=seed)
def test_one_hand_changes_over_a_lag_by_at_most_the_amplitude_times_the_missed_turn(lag, theta, seed):
    assert claims.near_repeat_bound(lag, theta, span=200, seed=seed).holds


@given(n=st.integers(3, 40), seed=seed)
def test_the_one_turn_hand_has_two_nonzero_eigenvalues_where_predicted(n, seed):
    assert claims.one_turn_spectrum(n, seed).holds


def test_the_one_turn_spectrum_refuses_two_positions():
    with pytest.raises(ValueError, match="n >= 3"):
        claims.one_turn_spectrum(2)


@given(n=st.integers(2, 24), d=even_d, seed=seed)
def test_a_head_scores_circulant_on_whole_turns_and_not_on_ropes_ladder(n, d, seed):
    assert claims.head_scores_circulant(n, d, whole_turns=True, seed=seed).holds
    assert not claims.head_scores_circulant(n, d, whole_turns=False, seed=seed).holds
