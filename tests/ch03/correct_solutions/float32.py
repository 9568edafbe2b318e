"""float32 throughout: the ladder from exp and log, the table with stack and reshape as in many tutorials, a float32
sum of cosines, and the wavelengths from the ladder."""

import numpy as np


def frequencies(d, base=10000.0):
    j = np.arange(d // 2, dtype=np.float32)
    return np.exp(-2 * j / d * np.log(np.float32(base)))


def sinusoidal_table(n, d, base=10000.0):
    angles = np.arange(n, dtype=np.float32)[:, None] * (base ** (-np.arange(0, d, 2) / d)).astype(np.float32)
    return np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(n, d)


def offset_similarity(k, d, base=10000.0):
    theta = (base ** (-np.arange(0, d, 2) / d)).astype(np.float32)
    return np.cos(np.float32(k) * theta).sum(dtype=np.float32)


def wavelengths(d, base=10000.0):
    theta = np.float32(base) ** (-np.arange(0, d, 2, dtype=np.float32) / np.float32(d))
    return np.float32(2 * np.pi) / theta
