r"""Training the book's tiny models: the loop, the one-thread setting it runs in, and the toy task three chapters
share.

:func:`fit` minimises the cross-entropy of a model's logits against the targets of a batch function, with
AdamW (plain Adam when ``weight_decay=0``), Adam or SGD; :func:`lagged_copy_batch` is the task "repeat the token
``lag`` positions back", :math:`\text{target}_t = \text{token}_{t-\text{lag}}`, which a model can only learn
through positions.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager

import numpy as np
import torch
from torch import nn

from . import validation
from .torch_nn import TinyModel


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
