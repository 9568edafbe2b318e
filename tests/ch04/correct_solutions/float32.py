"""float32 throughout, returning a 0-d array."""

import numpy as np


def rope_score(q, k, m, n, theta):
    a, b = np.float32(m * theta), np.float32(n * theta)
    rq = np.array([q[0] * np.cos(a) - q[1] * np.sin(a), q[0] * np.sin(a) + q[1] * np.cos(a)], dtype=np.float32)
    rk = np.array([k[0] * np.cos(b) - k[1] * np.sin(b), k[0] * np.sin(b) + k[1] * np.cos(b)], dtype=np.float32)
    return np.asarray(rq @ rk / np.float32(np.sqrt(2)))
