r"""Chapter 2's experiment and figures: a tiny model with a learned position table, trained briefly, to see which rows
training ever reaches.

The model is a :class:`posenc.torch_nn.TinyModel` with a table of ``n_positions`` rows, trained on
sequences of ``train_length`` tokens with the task "repeat the token ``lag`` positions back"
(:func:`lagged_copy_batch`). The loss of a sequence of length :math:`L` reads rows :math:`0, \ldots, L-1`
only, so every row :math:`p \ge L` gets a zero gradient (:mod:`posenc.torch_nn`). :func:`fit`, the
training loop, serves chapter 9's experiment too.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np
import torch
from torch import nn

from posenc import validation
from posenc.torch_nn import TinyModel

from .style import INK, MUTED, PALETTE, QUERY


def lagged_copy_batch(batch: int, length: int, vocab: int, lag: int,
                      generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """Random tokens and the task "repeat the token ``lag`` positions back": ``target[t] = tokens[t - lag]``.

    The first ``lag`` targets do not exist and are marked ``-100`` (ignored by the loss).
    """
    who = "lagged_copy_batch"
    batch, length, vocab = (validation.integer(v, name, who, minimum=1)
                            for v, name in ((batch, "batch"), (length, "length"), (vocab, "vocab")))
    lag = validation.integer(lag, "lag", who, minimum=1)
    if lag >= length:
        raise ValueError(f"{who}: lag must be shorter than the sequence, got lag={lag} and length={length}")
    tokens = torch.randint(vocab, (batch, length), generator=generator)
    targets = torch.full_like(tokens, -100)
    targets[:, lag:] = tokens[:, :-lag]
    return tokens, targets


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

    The model is a :class:`~posenc.torch_nn.TinyModel`, the task :func:`lagged_copy_batch` ("repeat the
    token ``lag`` back"), the optimiser that :func:`fit` names (AdamW, with ``weight_decay=0`` plain Adam).
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


OPTIMISERS = {"AdamW": torch.optim.AdamW, "Adam": torch.optim.Adam, "SGD": torch.optim.SGD}


@contextmanager
def one_thread():
    """Run the block with torch on one thread: a model this small runs fastest, and steadiest on a busy
    machine, that way. The previous thread count is restored afterwards."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


def fit(model: nn.Module, next_batch: Callable[[], tuple[torch.Tensor, torch.Tensor]], steps: int, *,
        lr: float = 1e-2, weight_decay: float = 0.0, optimiser: str = "AdamW", momentum: float = 0.0,
        after_backward: Callable[[], None] | None = None) -> np.ndarray:
    """Train ``model`` for ``steps`` steps of ``optimiser`` (one of :data:`OPTIMISERS`; ``momentum`` is SGD's)
    on the cross-entropy of its logits against the targets of ``next_batch()`` (``-100`` marks a position
    without a target), on one thread; the loss of every step.

    ``after_backward`` (optional) runs after each backward pass, when the gradients are in place.
    """
    steps = validation.integer(steps, "steps", "fit", minimum=0)
    extra = {"momentum": momentum} if optimiser == "SGD" else {}
    optimiser = OPTIMISERS[validation.option(optimiser, tuple(OPTIMISERS), "optimiser", "fit")](
        model.parameters(), lr=lr, weight_decay=weight_decay, **extra)
    losses = []
    with one_thread():
        for _ in range(steps):
            tokens, targets = next_batch()
            logits = model(tokens)  # (batch, seq, vocab)
            loss = nn.functional.cross_entropy(logits.flatten(0, 1), targets.flatten(), ignore_index=-100)
            optimiser.zero_grad()
            loss.backward()
            if after_backward is not None:
                after_backward()
            optimiser.step()
            losses.append(loss.item())
    return np.array(losses)


def fit_watching_table(model: TinyModel, next_batch: Callable[[], tuple[torch.Tensor, torch.Tensor]], steps: int,
                       **options) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`fit` (with its ``options``) for a model with a learned position table, watching the table: the
    loss of every step, the table before and after training, and the largest magnitude of a gradient each
    row received."""
    table = model.positions.table.weight  # (n_positions, d_model)
    before, largest_gradient = table.detach().numpy().copy(), np.zeros(len(table))

    def record_gradient() -> None:
        np.maximum(largest_gradient, table.grad.abs().amax(dim=1).numpy(), out=largest_gradient)

    losses = fit(model, next_batch, steps, after_backward=record_gradient, **options)
    return losses, before, table.detach().numpy().copy(), largest_gradient



def similarity_curves(positions, panels: dict[str, dict[str, np.ndarray]], *, ylabel: str, marks=(),
                      xlabel: str = "position q"):
    """Side-by-side panels of curves over ``positions``: ``panels`` maps a panel title to
    ``{curve label: values}``. Dotted vertical lines at ``marks`` (e.g. the reference positions).
    Short curves get a dot at every position; long ones are plain lines."""
    fig, axes = plt.subplots(1, len(panels), figsize=(7.2, 2.7), sharey=True, squeeze=False,
                             constrained_layout=True)
    marker = "." if len(positions) <= 100 else None
    for ax, (title, curves) in zip(axes[0], panels.items(), strict=True):
        for (label, values), colour in zip(curves.items(), PALETTE, strict=False):
            ax.plot(positions, values, marker=marker, markersize=3, linewidth=1, color=colour, label=label)
        for mark in marks:
            ax.axvline(mark, color=MUTED, linestyle=":", linewidth=0.8)
        ax.set_title(title)
        ax.set_xlabel(xlabel)
    axes[0, 0].set_ylabel(ylabel)
    if any(len(curves) > 1 for curves in panels.values()):
        axes[0, -1].legend(loc="lower right", fontsize=8.5)
    return fig


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
