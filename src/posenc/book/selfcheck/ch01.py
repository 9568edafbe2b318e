"""The self-checks of the exercises of chapter 1, *Attention sees a set*: one ``check_<answer>`` per answer."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from posenc.attention import attention as _attention
from posenc.attention import permutation_matrix as _permutation_matrix
from posenc.attention import softmax

from .checking import as_array, judge, passed, run_answer, seeded_rng


def check_attention(attention: Callable) -> None:
    """``attention(q, k, v)`` should be :math:`\\operatorname{softmax}(qk^\\top/\\sqrt d)\\,v`, softmax by rows."""
    rng = seeded_rng("attention")
    shapes = [(3, 3, 4, 4), (2, 5, 8, 3), (4, 4, 16, 2), (1, 6, 2, 5)]
    for n_q, n_k, d, d_v in shapes:
        q, k, v = rng.standard_normal((n_q, d)), rng.standard_normal((n_k, d)), rng.standard_normal((n_k, d_v))
        args = (q, k, v)
        got = as_array("attention", run_answer("attention", attention, *args), (n_q, d_v), args)
        scores = q @ k.T
        judge("attention", args, got, _attention(q, k, v), [
            (softmax(scores) @ v, "the scores are not scaled.",
             "divide q kᵀ by the square root of d, the width of q and k."),
            (softmax(scores / d) @ v, "the scores are divided by d itself.", "the scale is the square root of d."),
            (softmax(scores / np.sqrt(d), axis=0) @ v, "the softmax runs down the columns.",
             "each query's weights form a row, and a row should sum to 1."),
            (softmax(scores / np.sqrt(d)).T @ v if n_q == n_k else np.nan, "the weight matrix is used transposed.",
             "row m of the output mixes the values with the weights of query m."),
        ], "compute the weights softmax(q kᵀ/√d) first, check that each row sums to 1, then mix the rows of v.")
    passed("attention", len(shapes))


def check_permutation_matrix(permutation_matrix: Callable) -> None:
    """``permutation_matrix(order) @ x`` should equal ``x[order]``."""
    rng = seeded_rng("permutation_matrix")
    sizes = [3, 5, 8, 2]
    for n in sizes:
        order = rng.permutation(n)
        args = (order,)
        got = as_array("permutation_matrix", run_answer("permutation_matrix", permutation_matrix, order), (n, n), args)
        expected = _permutation_matrix(order)
        judge("permutation_matrix", args, got, expected, [
            (expected.T, "this matrix undoes the permutation (it is the transpose of the one asked for).",
             "row i should pick row order[i] of x, so the 1 of row i sits in column order[i]."),
            (_permutation_matrix(np.roll(np.arange(n), 1)[order]) if n > 1 else np.nan,
             "the 1s sit one column to the left.", "positions in `order` start at 0."),
        ], "row i of P @ x should be row order[i] of x; try P @ np.arange(n) and compare it with order.")
    passed("permutation_matrix", len(sizes))
