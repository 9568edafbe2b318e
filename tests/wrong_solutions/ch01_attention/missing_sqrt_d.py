"""Attention without the 1/sqrt(d) scale of the scores."""

import numpy as np


def attention(q, k, v):
    scores = q @ k.T
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    return weights / weights.sum(axis=1, keepdims=True) @ v
