"""The Fourier view: fitting a profile, the DFT matrix, and circulant matrices diagonalised by it (the coefficients
a query and key reach, and the spectrum of one hand, are checked on the page of chapter 6)."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from posenc import fourier, scores
from posenc.sinusoidal import frequencies

seed = st.integers(0, 10_000)


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
