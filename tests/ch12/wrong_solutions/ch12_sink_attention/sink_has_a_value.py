"""the sink's weight goes to the first token's value instead of being dropped. Hint: the sink is a column of the
softmax with no value: its weight adds nothing to the output."""

import numpy as np


def sink_attention(q, k, v, sinks, causal=True):
    q, k, v, sinks = (np.asarray(x, dtype=float) for x in (q, k, v, sinks))
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if causal:
        n = scores.shape[-1]
        scores = np.where(np.tril(np.ones((n, n), dtype=bool)), scores, -np.inf)
    full = np.concatenate([np.broadcast_to(sinks[:, None, None], scores.shape[:-1] + (1,)), scores], axis=-1)
    weights = np.exp(full - full.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return weights[..., 1:] @ v + weights[..., :1] * v[:, :1, :]
