"""Pairs as complex numbers: the key is the query multiplied by e^{3 i theta_j}, read back as real pairs; a list."""

import numpy as np


def design_lookback(d, base):
    theta = base ** (-np.arange(0, d, 2) / d)
    z = np.full(d // 2, 12.0 + 0j)
    w = z * np.exp(3j * theta)
    return [np.column_stack([z.real, z.imag]).ravel(), np.column_stack([w.real, w.imag]).ravel()]
