"""float32 throughout: a numpy float32 sum of cosines, and the wavelengths from a float32 ladder."""

import numpy as np


def offset_similarity(k, d, base=10000.0):
    theta = (base ** (-np.arange(0, d, 2) / d)).astype(np.float32)
    return np.cos(np.float32(k) * theta).sum(dtype=np.float32)


def wavelengths(d, base=10000.0):
    theta = np.float32(base) ** (-np.arange(0, d, 2, dtype=np.float32) / np.float32(d))
    return np.float32(2 * np.pi) / theta
