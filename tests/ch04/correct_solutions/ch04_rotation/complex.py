"""From the complex number e^{i angle}, real and imaginary parts."""

import cmath

import numpy as np


def rotation(angle):
    z = cmath.exp(1j * angle)
    return np.array([[z.real, -z.imag], [z.imag, z.real]])
