r"""Chapter 2's experiment and figures: a tiny model with a learned position table, trained briefly, to see which rows
training ever reaches.

The model is a :class:`posenc.torch_nn.TinyModel` with a table of ``n_positions`` rows, trained on
sequences of ``train_length`` tokens with the task "repeat the token ``lag`` positions back"
(:func:`posenc.training.lagged_copy_batch`).
The loss of a sequence of length :math:`L` reads rows :math:`0, \ldots, L-1`
only, so every row :math:`p \ge L` gets a zero gradient (:mod:`posenc.torch_nn`). :func:`posenc.training.fit` is the
training loop.
"""

from __future__ import annotations

from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np
import torch

from posenc import validation
from posenc.torch_nn import TinyModel
from posenc.training import fit_watching_table, lagged_copy_batch

from .style import INK, MUTED, QUERY


@dataclass(frozen=True)
class BriefTraining:
    """What :func:`train_briefly` measured: the position table before and after (``(n_positions, d_model)``),
    the trained head's :math:`W_Q^\\top W_K` (``(d_model, d_model)``: the head scores positions :math:`m, n` by
    :math:`e_m^\\top W_Q^\\top W_K e_n`), the largest gradient each row ever received, the loss of every step,
    and the settings."""

    initial_table: np.ndarray
    final_table: np.ndarray
    query_key: np.ndarray
    largest_gradient: np.ndarray
    losses: np.ndarray
    train_length: int
    steps: int
    batch: int
    lr: float
    weight_decay: float

    @property
    def row_change(self) -> np.ndarray:
        """:math:`\\max_i |P^{\\text{after}}_{p,i} - P^{\\text{before}}_{p,i}|` for every row ``p``."""
        return np.max(np.abs(self.final_table - self.initial_table), axis=1)


def train_briefly(*, n_positions: int = 1024, train_length: int = 512, d_model: int = 32, vocab: int = 16,
                  lag: int = 3, steps: int = 40, batch: int = 4, lr: float = 1e-2, weight_decay: float = 0.0,
                  optimiser: str = "AdamW", momentum: float = 0.0, seed: int = 0) -> BriefTraining:
    """Train a tiny model with a learned table of ``n_positions`` rows on sequences of ``train_length`` tokens.

    The model is a :class:`~posenc.torch_nn.TinyModel`, the task :func:`~posenc.training.lagged_copy_batch` ("repeat the
    token ``lag`` back"), the optimiser that :func:`~posenc.training.fit` names (AdamW; with ``weight_decay=0``,
    plain Adam).
    Seeded: the same numbers every run. A second or two on a CPU with the defaults.
    """
    n_positions = validation.integer(n_positions, "n_positions", "train_briefly", minimum=1)
    train_length = validation.integer(train_length, "train_length", "train_briefly")
    if not 0 < train_length <= n_positions:
        raise ValueError(
            f"train_briefly: train_length must be between 1 and n_positions={n_positions}, got {train_length}"
        )
    torch.manual_seed(seed)
    data = torch.Generator().manual_seed(seed)
    model = TinyModel(vocab, d_model, n_positions)
    losses, initial, final, largest_gradient = fit_watching_table(
        model, lambda: lagged_copy_batch(batch, train_length, vocab, lag, data), steps, lr=lr,
        weight_decay=weight_decay, optimiser=optimiser, momentum=momentum)
    head = model.head
    query_key = (head.w_q.weight.T @ head.w_k.weight).detach().numpy()  # W_Q^T W_K, (d_model, d_model)
    return BriefTraining(initial, final, query_key, largest_gradient, losses, train_length, steps, batch, lr,
                         weight_decay)



def row_changes(change: np.ndarray, train_length: int, *, ylabel: str = "largest change of an entry"):
    """How far training moved each row of a learned position table, with the rows that no training
    sequence reached (``>= train_length``) shaded."""
    fig, ax = plt.subplots(figsize=(7.0, 2.6), constrained_layout=True)
    rows = np.arange(len(change))
    ax.axvspan(train_length - 0.5, len(change) - 0.5, color=MUTED, alpha=0.15, linewidth=0)
    ax.plot(rows, change, color=QUERY, linewidth=0.8)
    ax.axvline(train_length - 0.5, color=INK, linestyle=":", linewidth=0.8)
    ax.text(train_length + 8, 0.93 * float(np.max(change)), "never in a training sequence", va="top", color=INK)
    ax.set_xlim(-0.5, len(change) - 0.5)
    ax.set_xlabel("row of the table (position)")
    ax.set_ylabel(ylabel)
    return fig
