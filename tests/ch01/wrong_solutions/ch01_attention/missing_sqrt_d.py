"""the scores are not scaled. Hint: divide q kᵀ by the square root of d, the width of q and k."""

import numpy as np


def attention(q, k, v):
    scores = q @ k.T
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    return weights / weights.sum(axis=1, keepdims=True) @ v
