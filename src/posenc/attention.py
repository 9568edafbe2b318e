"""Scaled dot-product attention, and the permutations it cannot see.

For queries :math:`Q \\in \\mathbb{R}^{n\\times d}`, keys :math:`K \\in \\mathbb{R}^{n\\times d}` and values
:math:`V \\in \\mathbb{R}^{n\\times d_v}`,

.. math:: \\operatorname{Attention}(Q, K, V) = \\operatorname{softmax}\\!\\big(QK^\\top/\\sqrt{d}\\big)\\,V,

with the softmax taken along each row. Nothing in the formula mentions a position.
"""

from __future__ import annotations

import numpy as np

from . import validation


def softmax(scores: np.ndarray, axis: int = -1) -> np.ndarray:
    """Softmax along ``axis``: :math:`\\operatorname{softmax}(s)_i = e^{s_i - \\max s} / \\sum_j e^{s_j - \\max s}`.

    Subtracting the maximum changes nothing mathematically and keeps ``exp`` from overflowing.
    Entries equal to ``-inf`` (masked scores) get weight exactly 0.

    >>> softmax(np.array([0.0, np.log(3.0)]))
    array([0.25, 0.75])
    """
    scores = validation.real_array(scores, "scores", "softmax", min_ndim=1, finite=False)
    axis = validation.integer(axis, "axis", "softmax")
    weights = np.exp(scores - np.max(scores, axis=axis, keepdims=True))
    return weights / np.sum(weights, axis=axis, keepdims=True)


def attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """Scaled dot-product attention :math:`\\operatorname{softmax}(QK^\\top/\\sqrt{d})V` of ``q``, ``k`` ``(..., n, d)``
    and ``v`` ``(..., n, d_v)``: row ``m`` of the result is the weighted average of the values query ``m`` sees.
    ``mask`` (optional, boolean) is ``True`` where a query may look at a key (see :func:`causal_mask`).
    """
    v = validation.real_array(v, "v", "attention", min_ndim=2)
    q, k = validation.rows_of_one_width(q, k, "attention")
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        mask = np.asarray(mask)
        if mask.dtype != np.bool_:
            raise TypeError(f"attention: mask must be a boolean array (True where a query may look), "
                            f"got dtype {mask.dtype}")
        scores = np.where(mask, scores, -np.inf)
    weights = softmax(scores)
    if weights.shape[-1] != v.shape[-2]:
        raise ValueError(f"attention: need one value per key, got {weights.shape[-1]} keys and {v.shape[-2]} values")
    return weights @ v


def self_attention(x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray) -> np.ndarray:
    """One head of self-attention on token vectors ``x`` (shape ``(n, d_model)``): queries, keys and
    values are the projections :math:`XW_Q`, :math:`XW_K`, :math:`XW_V`, then :func:`attention`."""
    x, w_q, w_k, w_v = (validation.matrix(m, name, "self_attention")
                        for m, name in ((x, "x"), (w_q, "w_q"), (w_k, "w_k"), (w_v, "w_v")))
    if not x.shape[1] == w_q.shape[0] == w_k.shape[0] == w_v.shape[0]:
        raise ValueError(f"self_attention: the weights need {x.shape[1]} rows (the width of x), got "
                         f"{w_q.shape[0]}, {w_k.shape[0]} and {w_v.shape[0]}")
    return attention(x @ w_q, x @ w_k, x @ w_v)


def permutation_matrix(order) -> np.ndarray:
    """The matrix :math:`P` with :math:`(PX)_i = X_{\\text{order}[i]}`, i.e. ``P @ x == x[order]``.

    >>> permutation_matrix([2, 0, 1]) @ np.array([10, 20, 30])
    array([30., 10., 20.])
    """
    order = np.asarray(order)
    if order.dtype == np.bool_ or not np.issubdtype(order.dtype, np.integer):
        raise TypeError(f"permutation_matrix: order must hold integers (indices), got dtype {order.dtype}")
    n = order.shape[0] if order.ndim else 0
    if order.ndim != 1 or not np.array_equal(np.sort(order), np.arange(n)):
        raise ValueError(f"permutation_matrix: order must be a permutation of 0..{n - 1}, got {order.tolist()}")
    p = np.zeros((n, n))
    p[np.arange(n), order] = 1.0
    return p


def causal_mask(n: int) -> np.ndarray:
    """Boolean ``(n, n)`` mask, ``True`` on and below the diagonal: query ``m`` sees keys ``0..m``."""
    n = validation.integer(n, "n", "causal_mask", minimum=0)
    return np.tril(np.ones((n, n), dtype=bool))
