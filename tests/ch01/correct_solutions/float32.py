"""The same formula in float32."""

import numpy as np


def attention(q, k, v):
    q, k, v = (np.asarray(a, dtype=np.float32) for a in (q, k, v))
    scores = q @ k.T / np.float32(np.sqrt(q.shape[1]))
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    return (weights / weights.sum(axis=1, keepdims=True)) @ v
