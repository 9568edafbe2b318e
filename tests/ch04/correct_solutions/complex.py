"""Complex numbers: the rotation from e^{i angle}, real and imaginary parts; the score Re(conj(q_m) k_n)/sqrt(2)."""

import cmath

import numpy as np


def rotation(angle):
    z = cmath.exp(1j * angle)
    return np.array([[z.real, -z.imag], [z.imag, z.real]])


def rope_score(q, k, m, n, theta):
    qm = complex(q[0], q[1]) * np.exp(1j * m * theta)
    kn = complex(k[0], k[1]) * np.exp(1j * n * theta)
    return (np.conj(qm) * kn).real / np.sqrt(2)
