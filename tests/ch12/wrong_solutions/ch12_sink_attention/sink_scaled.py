"""the sink logit is divided by sqrt(d) like the scores. Hint: the sink is a logit already, one number per head that
joins each row of scores as it is; only q_m . k_n is divided by sqrt(d)."""

import numpy as np


def sink_attention(q, k, v, sinks, causal=True):
    q, k, v, sinks = (np.asarray(x, dtype=float) for x in (q, k, v, sinks))
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if causal:
        n = scores.shape[-1]
        scores = np.where(np.tril(np.ones((n, n), dtype=bool)), scores, -np.inf)
    sink = sinks[:, None, None] / np.sqrt(q.shape[-1])
    top = np.maximum(scores.max(axis=-1, keepdims=True), sink)
    e = np.exp(scores - top)
    return e / (e.sum(axis=-1, keepdims=True) + np.exp(sink - top)) @ v
