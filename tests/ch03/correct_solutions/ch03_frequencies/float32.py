"""A float32 ladder from exp and log."""

import numpy as np


def frequencies(d, base=10000.0):
    j = np.arange(d // 2, dtype=np.float32)
    return np.exp(-2 * j / d * np.log(np.float32(base)))
