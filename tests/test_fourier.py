"""The Fourier view: fitting a profile (the coefficients a query and key reach, the spectrum of one hand and the
circulant's eigenvalues are checked on the page of chapter 6)."""

from __future__ import annotations

import numpy as np

from posenc import fourier
from posenc.sinusoidal import frequencies


def test_the_fit_recovers_a_polynomial_and_drops_directions_it_cannot_resolve():
    theta, offsets = frequencies(16), np.arange(-63, 1)
    h = np.arange(1, 9) * (1 + 1j) / 8
    target = fourier.trig_polynomial(h, offsets, theta)
    np.testing.assert_allclose(fourier.trig_polynomial(fourier.fit_coefficients(offsets, target, theta, rcond=None),
                                                       offsets, theta), target, atol=1e-9)
    bump = 8.0 * np.exp(-((np.arange(-31, 1) + 3) / 1.5) ** 2 / 2)
    loose = fourier.fit_coefficients(np.arange(-31, 1), bump, frequencies(64))
    assert np.max(np.abs(loose)) < 1e4  # the default cut-off keeps the coefficients moderate
