"""The self-checks of the exercises of chapter 2, *Absolute or relative?*: one ``check_<answer>`` per answer."""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np

from .checking import as_array, fail, judge, passed, run_answer, seeded_rng


def check_add_positions(add_positions: Callable) -> None:
    """``add_positions(x, table)`` adds row ``m`` of the table to token ``m``; too long a sequence is a ValueError."""
    rng = seeded_rng("add_positions")
    cases = [(4, 8, 6), (6, 4, 6), (1, 2, 3)]
    for n, d, rows in cases:
        x, table = rng.standard_normal((n, d)), rng.standard_normal((rows, d))
        args = (x, table)
        got = as_array("add_positions", run_answer("add_positions", add_positions, *args), (n, d), args)
        judge("add_positions", args, got, x + table[:n], [
            (x + table[1:n + 1] if rows > n else np.nan, "the positions are off by one.",
             "the first token is at position 0."),
            (x + table[n - 1::-1], "the table's rows are used in reverse order.", "token m takes row m."),
        ], "token m should receive row m of the table.")
    x, table = rng.standard_normal((7, 4)), rng.standard_normal((5, 4))
    call = "add_positions(<7 tokens>, <table of 5 rows>)"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            add_positions(x, table)
    except ValueError as error:
        if "5" not in str(error):
            fail(f"{call} raised ValueError with the message {str(error)!r}.",
                  "say in the message how many positions the table has.")
    except NotImplementedError:
        fail("add_positions is not written yet.", "replace the line `raise NotImplementedError()` with your code.")
    except Exception as error:  # the student's code may raise anything
        fail(f"{call} raised {type(error).__name__}.", "raise ValueError, with a message that names the problem.")
    else:
        fail(f"{call} returned a result.", "a table has nothing for positions it does not have: raise ValueError.")
    passed("add_positions", len(cases) + 1)


def check_offset_counts(offset_counts: Callable) -> None:
    """``offset_counts(n)[k]`` is the number of query-key pairs with the key ``k`` positions back."""
    sizes = [1, 4, 9, 30]
    for n in sizes:
        args = (n,)
        got = as_array("offset_counts", run_answer("offset_counts", offset_counts, n), (n,), args)
        k = np.arange(n)
        judge("offset_counts", args, got, n - k, [
            (n - k - 1, "each count is one too small.", "offset 0 (each token with itself) occurs n times."),
            (2.0 * (n - k), "pairs are counted twice.", "a causal query only looks back."),
            (np.ones(n), "every offset is counted once, like an absolute position.",
             "count the queries that have a key k positions back."),
        ], "count, for each k, the queries m whose key m - k still lies in the sequence.")
    passed("offset_counts", len(sizes))


def check_relative_scores(relative_scores: Callable) -> None:
    """``relative_scores(bias, n)[m, j] = bias[j - m + n - 1]``: a score for each offset ``j - m``."""
    rng = seeded_rng("relative_scores")
    sizes = [2, 4, 7]
    for n in sizes:
        bias = rng.standard_normal(2 * n - 1)
        args = (bias, n)
        got = as_array("relative_scores", run_answer("relative_scores", relative_scores, *args), (n, n), args)
        m, j = np.indices((n, n))
        judge("relative_scores", args, got, bias[j - m + n - 1], [
            (bias[m - j + n - 1], "the offsets run the wrong way.",
             "entry [m, j] belongs to the offset j - m (key minus query)."),
            (bias[(j - m + n) % (2 * n - 1)], "the offsets are shifted by one.", "offset 0 sits at bias[n - 1]."),
        ], "entry [m, j] should be the bias for the offset j - m.")
    passed("relative_scores", len(sizes))
