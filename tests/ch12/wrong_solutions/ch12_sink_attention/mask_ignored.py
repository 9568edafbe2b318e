"""the causal mask is left out: each query also sees the keys after it. Hint: with causal=True, set the scores of the
keys n > m to -inf before the softmax (the sink is never masked)."""

import numpy as np


def sink_attention(q, k, v, sinks, causal=True):
    q, k, v, sinks = (np.asarray(x, dtype=float) for x in (q, k, v, sinks))
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    top = np.maximum(scores.max(axis=-1, keepdims=True), sinks[:, None, None])
    e = np.exp(scores - top)
    return e / (e.sum(axis=-1, keepdims=True) + np.exp(sinks[:, None, None] - top)) @ v
