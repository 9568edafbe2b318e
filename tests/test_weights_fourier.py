"""Chapter 6, weights and the Fourier view: the score profile as a trigonometric polynomial, the profiles a head
can reach, the softmax weights of the last query, and circulant matrices diagonalised by the DFT."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc import claims, fourier, scores
from posenc.attention import softmax
from posenc.rotary import rope_matrix
from posenc.sinusoidal import frequencies

seed = st.integers(0, 10_000)
width = st.sampled_from([2, 4, 8, 16, 64])
base = st.sampled_from([100.0, 10_000.0, 500_000.0])


# ---- the profile is a trigonometric polynomial ----


@given(d=width, n=st.integers(2, 24), b=base, seed=seed)
def test_the_score_matrix_is_the_trigonometric_polynomial_of_the_offset(d, n, b, seed):
    assert claims.offset_trig_polynomial(d=d, n=n, base=b, seed=seed).holds


@given(d=st.sampled_from([4, 16, 64]), seed=seed)
def test_the_polynomial_with_q_and_k_exchanged_fails_the_check(d, seed):
    assert not claims.offset_trig_polynomial(d=d, n=16, seed=seed, swap=True).holds


@given(d=width, b=base, seed=seed)
def test_offset_scores_are_the_rows_of_the_rope_score_matrix(d, b, seed):
    q, k = np.random.default_rng(seed).standard_normal((2, d))
    s = scores.repeated_token_scores(q, k, 12, base=b)
    m = 11
    np.testing.assert_allclose(scores.offset_scores(q, k, np.arange(12) - m, base=b), s[m], atol=1e-12)
    np.testing.assert_allclose(fourier.trig_polynomial(fourier.offset_coefficients(q, k), np.arange(12) - m,
                                                       frequencies(d, b)), s[m], atol=1e-12)


def test_the_coefficient_of_one_pair_is_its_length_product_and_angle():
    h = fourier.offset_coefficients([3.0, 0.0], [0.0, 2.0])  # |q| = 3, |k| = 2, k a quarter turn ahead
    np.testing.assert_allclose(h, [6j / np.sqrt(2)])


# ---- which profiles a head can express ----


@given(d=width, seed=seed)
def test_every_choice_of_coefficients_is_reached_by_a_query_and_key(d, seed):
    rng = np.random.default_rng(seed)
    h = rng.standard_normal(d // 2) + 1j * rng.standard_normal(d // 2)
    q, k = fourier.pair_for_coefficients(h)
    np.testing.assert_allclose(fourier.offset_coefficients(q, k), h, atol=1e-12)


@given(d=st.sampled_from([4, 8, 16]), seed=seed)
def test_a_profile_in_the_span_is_reached_and_random_values_are_not(d, seed):
    assert claims.reachable_profile(d=d, n_offsets=4 * d, seed=seed).holds
    assert not claims.reachable_profile(d=d, n_offsets=4 * d, seed=seed, in_span=False).holds


def test_the_fit_recovers_a_polynomial_and_drops_directions_it_cannot_resolve():
    theta, offsets = frequencies(16), np.arange(-63, 1)
    h = np.arange(1, 9) * (1 + 1j) / 8
    target = fourier.trig_polynomial(h, offsets, theta)
    np.testing.assert_allclose(fourier.trig_polynomial(fourier.fit_coefficients(offsets, target, theta, rcond=None),
                                                       offsets, theta), target, atol=1e-9)
    bump = 8.0 * np.exp(-((np.arange(-31, 1) + 3) / 1.5) ** 2 / 2)
    loose = fourier.fit_coefficients(np.arange(-31, 1), bump, frequencies(64))
    assert np.max(np.abs(loose)) < 1e4  # the default cut-off keeps the coefficients moderate


# ---- the weights of the last query ----


@given(d=width, n=st.integers(1, 40), b=base, seed=seed)
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


# ---- circulant matrices and the DFT ----


@given(n=st.integers(1, 16), seed=seed)
def test_the_dft_diagonalises_a_circulant_matrix(n, seed):
    assert claims.dft_diagonalises_circulant(n=n, seed=seed).holds


@given(n=st.integers(3, 16), seed=seed)
def test_the_diagonalisation_fails_for_a_toeplitz_matrix_that_does_not_wrap(n, seed):
    assert not claims.dft_diagonalises_circulant(n=n, seed=seed, wrap=False).holds


def test_the_dft_matrix_is_unitary_and_is_numpys_fft():
    f, x = fourier.dft_matrix(7), np.random.default_rng(0).standard_normal(7)
    np.testing.assert_allclose(f @ f.conj().T, np.eye(7), atol=1e-12)
    np.testing.assert_allclose(f @ x, np.fft.fft(x, norm="ortho"), atol=1e-12)


@given(n=st.integers(1, 12), seed=seed)
def test_circulant_eigenvalues_are_the_frequency_response(n, seed):
    rng = np.random.default_rng(seed)
    c, x = rng.standard_normal(n), rng.standard_normal(n)
    big_c, lam = scores.circulant(c), fourier.circulant_eigenvalues(c)
    np.testing.assert_allclose(lam, np.fft.fft(big_c[:, 0]), atol=1e-12)
    np.testing.assert_allclose(np.fft.fft(big_c @ x), lam * np.fft.fft(x), atol=1e-10)
    for k in range(n):  # column k of F* is an eigenvector with eigenvalue lambda_k
        wave = np.exp(2j * np.pi * k * np.arange(n) / n)
        np.testing.assert_allclose(big_c @ wave, lam[k] * wave, atol=1e-10)


def test_the_first_rows_dft_puts_the_eigenvalues_on_the_opposite_frequencies():
    c = np.random.default_rng(1).standard_normal(6)
    lam = fourier.circulant_eigenvalues(c)
    np.testing.assert_allclose(np.fft.fft(c), lam[(-np.arange(6)) % 6], atol=1e-12)
    assert np.max(np.abs(np.fft.fft(c) - lam)) > 0.1


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_a_hand_whose_turns_fit_the_sequence_passes_only_its_own_frequency(turns):
    n = 8
    q, k = np.random.default_rng(turns).standard_normal((2, 2))
    lam = fourier.circulant_eigenvalues(scores.plane_scores(q, k, n, 2 * np.pi * turns / n)[0])
    h = fourier.offset_coefficients(q, k)[0]
    predicted = np.zeros(n, dtype=complex)
    predicted[turns], predicted[-turns] = n * np.conj(h) / 2, n * h / 2
    np.testing.assert_allclose(lam, predicted, atol=1e-12)


@given(d=st.sampled_from([4, 8, 64]), b=base, seed=seed)
def test_a_rope_head_does_not_wrap_over_its_context(d, b, seed):
    q, k = np.random.default_rng(seed).standard_normal((2, d))
    assert scores.circulant_deviation(scores.repeated_token_scores(q, k, 16, base=b)) > 1e-6
