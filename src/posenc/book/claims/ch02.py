"""The claims checked in chapter 2, *Absolute or relative?*

The rows of a freshly made learned table, unrelated to each other; the rows that training never reaches.
"""

from __future__ import annotations

import numpy as np

from .result import CHANCE, ClaimResult, claim_result


def _unit_rows(rows) -> np.ndarray:
    rows = np.asarray(rows, dtype=np.float64)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def neighbours_no_more_alike(rows) -> ClaimResult:
    r"""Neighbouring rows of the table ``rows`` (shape ``(N, d)``) are no more alike than independent random
    vectors: the mean cosine :math:`ar c = rac{1}{N-1}\sum_m \cos(e_m, e_{m+1})` is zero up to chance.

    For independent rows drawn from a distribution that looks the same in every direction, each cosine has
    mean 0 and variance :math:`1/d`, and the cosines of consecutive pairs are uncorrelated, so :math:`ar c`
    has standard error :math:`1/\sqrt{d(N-1)}`; the tolerance is :data:`CHANCE` of them. A table whose
    neighbouring rows are alike (the sinusoidal table of chapter 3) fails."""
    unit = _unit_rows(rows)
    n, d = unit.shape
    mean_cosine = float(np.mean(np.sum(unit[1:] * unit[:-1], axis=1)))
    return ClaimResult("mean cosine of neighbouring rows = 0 (independent rows)", abs(mean_cosine),
                       float(CHANCE / np.sqrt(d * (n - 1))))


def cosine_size_of_random_rows(rows, reference: int) -> ClaimResult:
    r"""The cosines between row ``reference`` and every other row have root mean square :math:`1/\sqrt{d}`, as
    for independent random vectors in :math:`d` dimensions.

    For such vectors :math:`E[c^2] = 1/d` and :math:`\operatorname{Var}[c^2] = 2(d-1)/(d^2(d+2))`; over
    :math:`N - 1` cosines the root mean square has standard error
    :math:`\sqrt{\operatorname{Var}[c^2]/(N-1)}\,ig/\,(2/\sqrt{d})`, and the tolerance is :data:`CHANCE` of them."""
    unit = _unit_rows(rows)
    n, d = unit.shape
    cosines = np.delete(unit @ unit[reference], reference)
    rms = float(np.sqrt(np.mean(cosines**2)))
    standard_error = np.sqrt(2 * (d - 1) / (d**2 * (d + 2)) / (n - 1)) / (2 / np.sqrt(d))
    return ClaimResult(f"rms cosine of row {reference} with the others = 1/sqrt(d) = {1 / np.sqrt(d):.3f}",
                       float(abs(rms - 1 / np.sqrt(d))), CHANCE * float(standard_error))


def untrained_rows_unchanged(training) -> ClaimResult:
    """Rows of a learned table at positions at or past the training length receive exactly zero gradient
    and, without weight decay, end training bit-identical to their start. ``training`` is a record with
    ``train_length`` and, for every row of the table, ``largest_gradient`` and ``row_change``: chapter 2's
    :class:`~posenc.book.experiments.ch02.BriefTraining` or chapter 9's
    :class:`~posenc.book.experiments.ch09.Extrapolation`."""
    unused = slice(training.train_length, None)
    deviations = [np.max(training.largest_gradient[unused], initial=0.0),
                  np.max(training.row_change[unused], initial=0.0)]
    return ClaimResult(f"rows >= {training.train_length}: zero gradient, unchanged", float(max(deviations)), 0.0)


def decayed_rows_only_shrink(training) -> ClaimResult:
    r"""With AdamW's weight decay :math:`\lambda` and learning rate :math:`\eta`, an untrained row is only
    multiplied by :math:`1 - \eta\lambda` at each step, so after :math:`T` steps it is
    :math:`(1 - \eta\lambda)^T` times its initial value. Tolerance: one float32 rounding per step."""
    factor = (1.0 - training.lr * training.weight_decay) ** training.steps
    unused = slice(training.train_length, None)
    start, end = training.initial_table[unused], training.final_table[unused]
    tolerance = training.steps * float(np.finfo(np.float32).eps) * float(np.max(np.abs(start), initial=1.0))
    return claim_result(f"rows >= {training.train_length}: scaled by (1 - lr wd)^steps = {factor:.4f}",
                        np.ravel(end - factor * start), tolerance)
