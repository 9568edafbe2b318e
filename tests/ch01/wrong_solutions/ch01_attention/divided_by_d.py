"""the scores are divided by d itself. Hint: the scale is the square root of d."""

import numpy as np


def attention(q, k, v):
    scores = q @ k.T / q.shape[-1]
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    return weights / weights.sum(axis=1, keepdims=True) @ v
