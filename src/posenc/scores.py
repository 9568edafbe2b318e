"""Score matrices and the shapes position forces on them.

A matrix is *Toeplitz* when each entry depends only on its offset from the diagonal,
:math:`S_{m,n} = f(n - m)`: every diagonal is constant. It is *circulant* when, in addition, the
diagonals wrap around, :math:`S_{m,n} = c\\big((n - m) \\bmod N\\big)`. Every circulant matrix is Toeplitz;
the converse fails as soon as a diagonal and its wrapped partner differ.
"""

from __future__ import annotations

import numpy as np

from . import validation
from .attention import softmax
from .rotary import _rope


def score_matrix(q: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Scaled dot products :math:`S_{m,n} = q_m\\cdot k_n/\\sqrt{d}`, shape ``(..., n_q, n_k)``."""
    q, k = validation.rows_of_one_width(q, k, "score_matrix")
    return q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])


def repeated_token_scores(q: np.ndarray, k: np.ndarray, n: int, *, base: float = 10000.0) -> np.ndarray:
    """Scores after RoPE of one token repeated ``n`` times, the same ``q`` and ``k`` (shape ``(d,)``) at every
    position: :math:`S_{m,n} = (\\Theta_m q)^\\top(\\Theta_n k)/\\sqrt{d}`, shape ``(n, n)``."""
    who = "repeated_token_scores"
    q, k = validation.query_and_key(q, k, who)
    n, base = validation.integer(n, "n", who, minimum=1), validation.base(base, who)
    positions = np.arange(n)
    return score_matrix(_rope(np.tile(q, (n, 1)), positions, base), _rope(np.tile(k, (n, 1)), positions, base))


def toeplitz_deviation(s: np.ndarray) -> float:
    """:math:`\\max_{m,n} |S_{m,n} - S_{m+1,n+1}|`: zero exactly when every diagonal of ``s`` is constant."""
    s = validation.matrix(s, "s", "toeplitz_deviation")
    return float(np.max(np.abs(s[:-1, :-1] - s[1:, 1:]), initial=0.0))  # 0 for a single row or column


def toeplitz(first_column, first_row) -> np.ndarray:
    """The Toeplitz matrix with the given first column and first row (``first_row[0]`` is ignored).

    >>> toeplitz([1, 2, 3], [1, 4, 5])
    array([[1., 4., 5.],
           [2., 1., 4.],
           [3., 2., 1.]])
    """
    col = validation.real_array(first_column, "first_column", "toeplitz", ndim=1)
    row = validation.real_array(first_row, "first_row", "toeplitz", ndim=1)
    offsets = np.arange(row.size)[None, :] - np.arange(col.size)[:, None]  # n - m
    return np.where(offsets >= 0, row[np.clip(offsets, 0, None)], col[np.clip(-offsets, 0, None)])


def circulant(first_row) -> np.ndarray:
    """The circulant matrix whose row ``m`` is ``first_row`` shifted right by ``m`` (wrapping around).

    >>> circulant([1, 2, 3])
    array([[1., 2., 3.],
           [3., 1., 2.],
           [2., 3., 1.]])
    """
    row = validation.real_array(first_row, "first_row", "circulant", ndim=1)
    return np.stack([np.roll(row, m) for m in range(row.size)])


# Weights, not only scores: the score of one query against one key as a function of the offset, and the
# softmax weights of the last query of a causal context.


def offset_scores(q: np.ndarray, k: np.ndarray, offsets, *, base: float = 10000.0) -> np.ndarray:
    r"""The RoPE score of ``q`` against ``k`` placed ``offsets`` positions away, :math:`s(\Delta) =
    q^\top\Theta_\Delta k/\sqrt{d} = (\Theta_m q)^\top(\Theta_{m+\Delta} k)/\sqrt{d}` for any :math:`m`;
    ``q``, ``k`` of shape ``(d,)``, the result of shape ``(len(offsets),)``.

    >>> offset_scores(np.array([1.0, 0.0]), np.array([1.0, 0.0]), [0, 1], base=100.0).round(6)
    array([0.707107, 0.382051])
    """
    who = "offset_scores"
    q, k = validation.query_and_key(q, k, who)
    offsets, base = validation.real_vector(offsets, "offsets", who), validation.base(base, who)
    return _rope(np.tile(k, (offsets.size, 1)), offsets, base) @ q / np.sqrt(q.size)


def last_query_weights(q: np.ndarray, k: np.ndarray, n_positions: int, *, base: float = 10000.0) -> np.ndarray:
    r"""The attention weights of a query at the last position :math:`m = N - 1` of a causal context whose
    every key is ``k``: :math:`a_n = \operatorname{softmax}_n\big((\Theta_m q)^\top(\Theta_n k)/\sqrt d\big)`
    for :math:`n = 0, \ldots, N - 1`, so that entry :math:`n` belongs to the offset :math:`\Delta = n - m \le 0`.

    >>> last_query_weights(np.array([1.0, 0.0]), np.array([1.0, 0.0]), 3, base=100.0).sum().round(12)
    np.float64(1.0)
    """
    who = "last_query_weights"
    q, k = validation.query_and_key(q, k, who)
    n_positions = validation.integer(n_positions, "n_positions", who, minimum=1)
    base = validation.base(base, who)
    keys = _rope(np.tile(k, (n_positions, 1)), np.arange(n_positions), base)  # key n turned by Theta_n
    query = _rope(q[None, :], [n_positions - 1], base)[0]
    return softmax(keys @ query / np.sqrt(q.size))
