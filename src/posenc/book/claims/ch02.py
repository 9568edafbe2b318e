"""The claims checked in chapter 2, *Absolute or relative?*

The rows of a learned table that training never reaches.
"""

from __future__ import annotations

import numpy as np

from .result import ClaimResult, claim_result


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
