r"""RoPE while generating text: a decoder's KV cache, and the positions of a left-padded batch.

A decoder produces one token at a time. Its keys are rotated once, at their own positions, and kept
in a cache; each new query is rotated at its position and scored against the cache. Because RoPE's
score depends only on :math:`n - m`, this gives the scores of recomputing everything, and a prompt
padded on the left keeps its scores when positions are counted over its real tokens only.
"""

from __future__ import annotations

import numpy as np

from . import validation
from .rotary import _rope


def cached_decoding_scores(q: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""Scores computed as a decoder with a KV cache computes them: one token at a time.

    At step :math:`t` the new key is rotated at position :math:`t` and appended to the cache, where it is
    never touched again; the new query, rotated at position :math:`t`, is scored against the whole cache:
    :math:`S_{t,n} = (\Theta_t q_t)^\top(\Theta_n k_n)/\sqrt d` for :math:`n \le t`. ``q`` and ``k`` have shape
    ``(seq, d)``, in the order the tokens are generated. Returns the scores ``(seq, seq)``, ``-inf`` above the
    diagonal (the causal mask), and the cache ``(seq, d)``: the rotated keys as they sit there at the end.
    """
    q, k = validation.matrix(q, "q", "cached_decoding_scores"), validation.matrix(k, "k", "cached_decoding_scores")
    if q.shape != k.shape or q.shape[1] % 2:
        raise ValueError(f"cached_decoding_scores: q and k must both have shape (seq, d) with d even, "
                         f"got {q.shape} and {k.shape}")
    seq, d = q.shape
    cache = np.empty((0, d))
    scores = np.full((seq, seq), -np.inf)
    for t in range(seq):
        cache = np.vstack([cache, _rope(k[t : t + 1], [t])])  # the old rows stay as they are
        scores[t, : t + 1] = cache @ _rope(q[t : t + 1], [t])[0] / np.sqrt(d)
    return scores, cache


def positions_from_mask(mask) -> np.ndarray:
    r"""Each token's position counted over the real tokens of its row: ``cumsum(mask) - 1``.

    ``mask`` (shape ``(..., seq)``, 1 for a token and 0 for padding) is the attention mask of a padded
    batch. A row padded on the left, ``[0, 0, 1, 1]``, gets positions ``[0, 0, 0, 1]``: its first real
    token sits at 0 exactly as it would without padding. Padding slots get 0; they are masked out, so their
    value never reaches a score.

    >>> positions_from_mask([[1, 1, 1, 1], [0, 0, 1, 1]])
    array([[0, 1, 2, 3],
           [0, 0, 0, 1]])
    """
    mask = np.asarray(mask)
    mask = validation.real_array(mask.astype(np.int64) if mask.dtype == np.bool_ else mask, "mask",
                             "positions_from_mask", min_ndim=1)
    if not np.all((mask == 0) | (mask == 1)):
        raise ValueError("positions_from_mask: mask must be an array of 0s and 1s (1 marks a real token)")
    return np.where(mask == 1, np.cumsum(mask, axis=-1) - 1, 0).astype(np.int64)
