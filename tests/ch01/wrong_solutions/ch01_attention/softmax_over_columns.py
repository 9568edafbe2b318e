"""the softmax runs down the columns. Hint: each query's weights form a row, and a row should sum to 1."""

import numpy as np


def attention(q, k, v):
    scores = q @ k.T / np.sqrt(q.shape[-1])
    weights = np.exp(scores - scores.max(axis=0, keepdims=True))
    return weights / weights.sum(axis=0, keepdims=True) @ v
