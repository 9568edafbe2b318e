"""Meta's form: pairs as complex numbers times e^{i p theta}."""

import numpy as np


def apply_rope_interleaved(x, positions, base=10000.0):
    d = x.shape[-1]
    z = x[:, 0::2] + 1j * x[:, 1::2]
    z = z * np.exp(1j * np.outer(positions, base ** (-np.arange(0, d, 2) / d)))
    return np.stack([z.real, z.imag], axis=-1).reshape(x.shape)
