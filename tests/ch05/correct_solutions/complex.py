"""Multiplication by e^{i m theta}."""

import numpy as np


def rotate(q, m, theta):
    z = complex(q[0], q[1]) * np.exp(1j * m * theta)
    return np.array([z.real, z.imag])
