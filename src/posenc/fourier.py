r"""The Fourier view of a RoPE head: its score profile as a trigonometric polynomial.

Read pair :math:`j` of a vector as the complex number :math:`z_j(x) = x_{2j} + i\,x_{2j+1}`. The score of
a query against a key :math:`\Delta = n - m` positions away is then

.. math:: s(\Delta) = \operatorname{Re} \sum_{j=0}^{d/2-1} h_j\, e^{i\Delta\theta_j}, \qquad
          h_j = \overline{z_j(q)}\,z_j(k)/\sqrt{d},

a real trigonometric polynomial with the head's :math:`d/2` frequencies, and every choice of the complex
coefficients :math:`h_j` comes from some query and key.
"""

from __future__ import annotations

import numpy as np

from . import validation


def offset_coefficients(q, k) -> np.ndarray:
    r"""The coefficients :math:`h_j = \overline{z_j(q)}\,z_j(k)/\sqrt d` of the score profile
    :math:`s(\Delta) = \operatorname{Re}\sum_j h_j e^{i\Delta\theta_j}`; ``q`` and ``k`` have shape ``(d,)``.

    >>> offset_coefficients([1.0, 0.0], [0.0, 2.0])  # k a quarter turn ahead of q: h = 2i / sqrt(2)
    array([0.+1.41421356j])
    """
    q, k = validation.query_and_key(q, k, "offset_coefficients")
    return np.conj(q[0::2] + 1j * q[1::2]) * (k[0::2] + 1j * k[1::2]) / np.sqrt(q.size)  # conj(z_j(q)) z_j(k)


def trig_polynomial(h, offsets, theta) -> np.ndarray:
    r""":math:`p(\Delta) = \operatorname{Re}\sum_j h_j e^{i\Delta\theta_j}` at each offset, shape ``offsets.shape``.

    >>> trig_polynomial([1.0, 1j], [0.0, 1.0], [np.pi, np.pi / 2])  # cos(pi D) - sin(pi D / 2)
    array([ 1., -2.])
    """
    h = np.asarray(h)
    if h.dtype == np.bool_ or not np.issubdtype(h.dtype, np.number):
        raise TypeError(f"trig_polynomial: h must hold real or complex numbers, got dtype {h.dtype}")
    offsets = validation.real_array(offsets, "offsets", "trig_polynomial")
    theta = validation.real_vector(theta, "theta", "trig_polynomial")
    if h.shape != theta.shape or not np.all(np.isfinite(h)):
        raise ValueError(f"trig_polynomial: h must be finite, of theta's shape {theta.shape}, got shape {h.shape}")
    return np.real(np.exp(1j * offsets[..., None] * theta) @ h.astype(complex))


def fit_coefficients(offsets, target, theta, *, rcond: float | None = 1e-6) -> np.ndarray:
    r"""The coefficients :math:`h` (shape ``theta.shape``) whose polynomial :math:`\operatorname{Re}\sum_j
    h_j e^{i\Delta\theta_j}` is closest to ``target`` at ``offsets`` in least squares.

    With :math:`h_j = a_j + i b_j` the polynomial is :math:`\sum_j a_j\cos\Delta\theta_j - b_j\sin\Delta\theta_j`,
    linear in the real unknowns :math:`(a, b)`; ``numpy.linalg.lstsq`` solves for them. Slow hands turn so
    little over a short window that their columns are nearly dependent; singular values below ``rcond``
    times the largest are dropped, so that the coefficients stay moderate (the smallest solution of the rest);
    ``rcond=None`` keeps every direction numpy can resolve (its default cut-off, near machine precision).

    >>> fit_coefficients([0.0, 1.0, 2.0], [1.0, 0.0, -1.0], [np.pi / 2]).round(12)  # cos(pi D / 2)
    array([1.+0.j])
    """
    offsets = validation.real_vector(offsets, "offsets", "fit_coefficients")
    target = validation.real_vector(target, "target", "fit_coefficients")
    theta = validation.real_vector(theta, "theta", "fit_coefficients")
    if target.shape != offsets.shape:
        raise ValueError(f"fit_coefficients: target must have one value per offset, got {target.size} values "
                         f"for {offsets.size} offsets")
    angles = offsets[:, None] * theta
    if rcond is not None:
        rcond = validation.real(rcond, "rcond", "fit_coefficients", at_least=0.0)
    solution = np.linalg.lstsq(np.hstack([np.cos(angles), -np.sin(angles)]), target, rcond=rcond)[0]
    return solution[:theta.size] + 1j * solution[theta.size:]
