"""The Fourier view: a head's score profile as a trigonometric polynomial of the offset, the coefficients a
query and key reach, fitting a profile, and circulant matrices diagonalised by the DFT."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc import fourier, scores
from posenc.sinusoidal import frequencies

seed = st.integers(0, 10_000)
width = st.sampled_from([2, 4, 8, 16, 64])


def test_the_coefficient_of_one_pair_is_its_length_product_and_angle():
    h = fourier.offset_coefficients([3.0, 0.0], [0.0, 2.0])  # |q| = 3, |k| = 2, k a quarter turn ahead
    np.testing.assert_allclose(h, [6j / np.sqrt(2)])


@given(d=width, seed=seed)
def test_every_choice_of_coefficients_is_reached_by_a_query_and_key(d, seed):
    rng = np.random.default_rng(seed)
    h = rng.standard_normal(d // 2) + 1j * rng.standard_normal(d // 2)
    q, k = fourier.pair_for_coefficients(h)
    np.testing.assert_allclose(fourier.offset_coefficients(q, k), h, atol=1e-12)


def test_the_fit_recovers_a_polynomial_and_drops_directions_it_cannot_resolve():
    theta, offsets = frequencies(16), np.arange(-63, 1)
    h = np.arange(1, 9) * (1 + 1j) / 8
    target = fourier.trig_polynomial(h, offsets, theta)
    np.testing.assert_allclose(fourier.trig_polynomial(fourier.fit_coefficients(offsets, target, theta, rcond=None),
                                                       offsets, theta), target, atol=1e-9)
    bump = 8.0 * np.exp(-((np.arange(-31, 1) + 3) / 1.5) ** 2 / 2)
    loose = fourier.fit_coefficients(np.arange(-31, 1), bump, frequencies(64))
    assert np.max(np.abs(loose)) < 1e4  # the default cut-off keeps the coefficients moderate


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
