r"""Attention sinks: where a softmax puts the weight that no key earns, and the rolling cache that keeps them.

A softmax gives its keys weights that sum to 1, so a query that matches nothing must still spend its weight
somewhere; trained models spend much of it on the first tokens, the *attention sinks* of Xiao et al. (2023).
Two designs follow from it:

- **StreamingLLM** keeps the first few tokens in a rolling KV cache beside a window of the most recent
  ones, and turns every cached key by its slot in the cache, not by its place in the text;
- **learned sink logits** (GPT-OSS) add one logit per head to every softmax, a column with no value: the
  weights of the real keys then sum to less than 1.
"""

from __future__ import annotations

import numpy as np

from . import validation


def sink_weights(scores, sink) -> np.ndarray:
    r"""Attention weights of the real keys when the softmax holds one more logit, ``sink``, that has no value.

    Parameters
    ----------
    scores : array (..., n_keys)
        Logits of the real keys (``-inf`` where a mask forbids a key).
    sink : number or array broadcastable to ``scores.shape[:-1]``
        The sink logit (GPT-OSS: one per head).

    Returns
    -------
    array (..., n_keys)
        .. math:: w_n = \frac{e^{s_n}}{e^{\text{sink}} + \sum_l e^{s_l}} ,

        the softmax over ``[scores, sink]`` with the sink's column dropped; the weights sum to
        :math:`1/(1 + e^{\text{sink} - \operatorname{logsumexp}(s)}) < 1`.

    >>> sink_weights([0.0, np.log(2.0)], 0.0)
    array([0.25, 0.5 ])
    """
    scores = validation.real_array(scores, "scores", "sink_weights", min_ndim=1, finite=False)
    sink = validation.real_array(sink, "sink", "sink_weights")[..., None]   # a column beside the keys
    top = np.maximum(np.max(scores, axis=-1, keepdims=True), sink)       # subtracted against overflow
    weights = np.exp(scores - top)
    return weights / (np.sum(weights, axis=-1, keepdims=True) + np.exp(sink - top))


def streaming_cache(n_tokens: int, n_sink: int, window: int) -> tuple[np.ndarray, np.ndarray]:
    r"""StreamingLLM's rolling cache after ``n_tokens`` tokens: which tokens it holds and the positions their
    keys are turned by.

    The cache keeps the first ``n_sink`` tokens and the last ``window`` (all of them while
    ``n_tokens <= n_sink + window``); the authors' code caches keys before rotation and turns the key in slot
    :math:`i` of the cache by position :math:`i`, so the positions are :math:`0, 1, \ldots` whatever the
    tokens' places in the text.

    Returns
    -------
    kept : int array
        The tokens' places in the text.
    positions : int array
        The positions RoPE turns their keys by: their slots in the cache.

    >>> streaming_cache(10, 2, 3)
    (array([0, 1, 7, 8, 9]), array([0, 1, 2, 3, 4]))
    """
    who = "streaming_cache"
    n_tokens = validation.integer(n_tokens, "n_tokens", who, minimum=0)
    n_sink = validation.integer(n_sink, "n_sink", who, minimum=0)
    window = validation.integer(window, "window", who, minimum=1)
    text = np.arange(n_tokens)
    kept = text if n_tokens <= n_sink + window else np.r_[text[:n_sink], text[-window:]]
    return kept, np.arange(len(kept))
