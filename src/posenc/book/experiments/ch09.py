r"""Chapter 9's experiment: tiny models with five position schemes, trained at one length and
evaluated at longer ones.

Every model is a :class:`posenc.torch_nn.TinyModel` trained on the copy task of
:func:`copy_batch` at length :math:`L`: a block of :math:`L/2` random tokens, then
:math:`L/2` blanks on which the model writes the block out again. Copying a block of :math:`n` tokens needs
attention at the offset :math:`n - m = -n`, so at length :math:`L'` the task asks for an offset of
:math:`L'/2`, one that training at :math:`L` never showed when :math:`L' > L`.

The models are evaluated at each length :math:`L'` of ``lengths``, by the fraction of blanks on which the
most likely token is the right one (chance: one in ``vocab - 1``). The learned table has
``max(lengths)`` rows, of which training reaches the first :math:`L` only; the rows past them keep their
random initial values (:mod:`posenc.torch_nn`). The trained RoPE model is also evaluated with the
ladders of :mod:`posenc.scaling` at the factor :math:`s = L'/L`: position interpolation, YaRN (with its
temperature), and position interpolation after a few steps of fine-tuning at :math:`2L`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from posenc import checks, scaling
from posenc.torch_nn import TinyModel, with_ladder

from .ch02 import fit, fit_watching_table, one_thread


def copy_batch(batch: int, length: int, vocab: int, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """The copy task: the first half of each sequence is random tokens ``1 .. vocab - 1``, the second half is
    the blank token ``0``, and the target at blank position ``t`` is the token ``length // 2`` places back,
    ``target[t] = tokens[t - length // 2]``: the model writes the first half out again.

    The first half has no targets (``-100``). Copying a block of ``n`` tokens needs attention at offset
    ``n``, so the offset the task asks for grows with the input.
    """
    who = "copy_batch"
    batch = checks.integer(batch, "batch", who, minimum=1)
    length = checks.integer(length, "length", who, minimum=2)
    vocab = checks.integer(vocab, "vocab", who, minimum=2)
    if length % 2:
        raise ValueError(f"{who}: length must be even (a block and its copy), got length={length}")
    half = length // 2
    block = torch.randint(1, vocab, (batch, half), generator=generator)
    tokens = torch.cat([block, torch.zeros_like(block)], dim=1)
    targets = torch.cat([torch.full_like(block, -100), block], dim=1)
    return tokens, targets


def _same_shape(tokens: torch.Tensor, targets: torch.Tensor, who: str) -> None:
    """Tokens and targets must be integer tensors of one shape ``(batch, seq)``."""
    for name, t in (("tokens", tokens), ("targets", targets)):
        if not isinstance(t, torch.Tensor) or t.is_floating_point() or t.is_complex():
            raise TypeError(f"{who}: {name} must be an integer tensor, got {type(t).__name__}")
    if tokens.ndim != 2 or tokens.shape != targets.shape:
        raise ValueError(f"{who}: tokens and targets must have one shape (batch, seq), "
                         f"got {tuple(tokens.shape)} and {tuple(targets.shape)}")


def accuracy(model: nn.Module, tokens: torch.Tensor, targets: torch.Tensor) -> float:
    """The fraction of positions with a target (not ``-100``) where the model's most likely token is the target."""
    _same_shape(tokens, targets, "accuracy")
    with torch.no_grad(), one_thread():
        predicted = model(tokens).argmax(dim=-1)
    scored = targets != -100
    return float((predicted[scored] == targets[scored]).float().mean())


def order_blind(tokens: torch.Tensor, targets: torch.Tensor) -> float:
    """The accuracy of the best guess that ignores order: on every blank, the token most frequent in the
    block. A model without position information can do no better on average on :func:`copy_batch`
    (given the block's tokens, every order of them is equally likely).

    >>> tokens = torch.tensor([[3, 3, 5, 0, 0, 0]]); targets = torch.tensor([[-100, -100, -100, 3, 3, 5]])
    >>> round(order_blind(tokens, targets), 3)
    0.667
    """
    _same_shape(tokens, targets, "order_blind")
    half = tokens.shape[-1] // 2
    counts = torch.nn.functional.one_hot(tokens[:, :half]).sum(dim=1)  # (batch, vocab)
    return float(counts.max(dim=1).values.sum() / (targets != -100).sum())


SCHEMES = {"NoPE": "none", "learned": "learned", "sinusoidal": "sinusoidal", "ALiBi": "alibi", "RoPE": "rope"}


@dataclass(frozen=True)
class Extrapolation:
    """What :func:`run_experiment` measured: ``accuracy[method][i]`` at evaluation length ``lengths[i]``;
    the accuracy ``order_blind[i]`` of a reader who knows the block but not its order
    (:func:`order_blind`); for every row of the learned table, the largest gradient it received and the
    largest change training made to it (``max(lengths)`` rows, ``train_length`` of them trained); the
    training loss of every model's last step; the settings; and the seconds
    the run took."""

    lengths: tuple[int, ...]
    accuracy: dict[str, np.ndarray]
    order_blind: np.ndarray
    largest_gradient: np.ndarray
    row_change: np.ndarray
    final_loss: dict[str, float]
    train_length: int
    vocab: int
    d_model: int
    n_heads: int
    steps: int
    fine_tune_steps: int
    fine_tune_lr: float
    yarn_ramp: tuple[float, float]
    seed: int
    seconds: float

    @property
    def chance(self) -> float:
        """The accuracy of a guess: one in the ``vocab - 1`` content tokens."""
        return 1.0 / (self.vocab - 1)

    def table(self) -> list[list[str]]:
        """The accuracies as rows of text, ``[method, acc at lengths[0], ...]``, in percent."""
        return [[name, *(f"{100 * a:.0f}%" for a in values)] for name, values in self.accuracy.items()]


def _copy_batches(batch: int, length: int, vocab: int, seed: int):
    """A function that hands out the next batch of the copy task from a generator seeded with ``seed``."""
    data = torch.Generator().manual_seed(seed)
    return lambda: copy_batch(batch, length, vocab, data)


def _stretch_ladders(model: TinyModel, train_length: int, length: int, yarn_ramp: tuple[float, float]) -> dict:
    """The trained RoPE ``model`` with the ladders of position interpolation and YaRN at the factor
    :math:`s = \\max(1, L'/L)` for an input of ``length`` :math:`L'`."""
    factor = max(1.0, length / train_length)
    d, base = model.head.w_q.out_features, model.head.base
    alpha, beta = yarn_ramp
    return {
        "RoPE + PI": with_ladder(model, scaling.position_interpolation(d, factor, base)),
        "RoPE + YaRN": with_ladder(model, scaling.yarn(d, factor, train_length, base, alpha, beta),
                                   scaling.yarn_attention_scale(factor)),
    }


def run_experiment(*, train_length: int = 32, lengths=(32, 64, 128), vocab: int = 17, d_model: int = 32,
                   n_heads: int = 4, steps: int = 250, batch: int = 32, lr: float = 1e-2,
                   fine_tune_steps: int = 30, fine_tune_lr: float = 1e-3,
                   yarn_ramp: tuple[float, float] = (1.0, 4.0), eval_batch: int = 64, seed: int = 0) -> Extrapolation:
    """Train one :class:`~posenc.torch_nn.TinyModel` per scheme of :data:`SCHEMES` on the copy task at
    ``train_length`` and measure its accuracy at each of ``lengths`` (see the module's docstring).

    Seeded: each model starts from ``torch.manual_seed(seed)`` and sees the same batches, so two runs give
    identical numbers. ``yarn_ramp`` is YaRN's :math:`(\\alpha, \\beta)`; ``fine_tune_steps`` steps at twice
    the training length, with position interpolation at factor 2 and the learning rate ``fine_tune_lr``,
    give the last method.
    """
    who = "run_experiment"
    start = time.perf_counter()
    train_length = checks.integer(train_length, "train_length", who, minimum=2)
    lengths = tuple(checks.integer(n, "lengths", who, minimum=2) for n in lengths)
    fine_tune_steps = checks.integer(fine_tune_steps, "fine_tune_steps", who, minimum=0)
    evaluation = {n: copy_batch(eval_batch, n, vocab, torch.Generator().manual_seed(seed + 1)) for n in lengths}
    accuracies, losses, rope = {}, {}, None
    for name, scheme in SCHEMES.items():
        torch.manual_seed(seed)
        model = TinyModel(vocab, d_model, max(lengths) if scheme == "learned" else None, position=scheme,
                          n_heads=n_heads)
        batches = _copy_batches(batch, train_length, vocab, seed)
        if scheme == "learned":
            trained, before, after, largest_gradient = fit_watching_table(model, batches, steps, lr=lr)
            row_change = np.max(np.abs(after - before), axis=1)
        else:
            trained = fit(model, batches, steps, lr=lr)
        losses[name] = float(trained[-1])
        accuracies[name] = [accuracy(model, *evaluation[n]) for n in lengths]
        rope = model if scheme == "rope" else rope
    stretched = {n: _stretch_ladders(rope, train_length, n, yarn_ramp) for n in lengths}
    for name in ("RoPE + PI", "RoPE + YaRN"):
        accuracies[name] = [accuracy(stretched[n][name], *evaluation[n]) for n in lengths]
    accuracies["RoPE + PI, fine-tuned"] = _fine_tuned(rope, train_length, lengths, evaluation, vocab, batch,
                                                      fine_tune_lr, fine_tune_steps, yarn_ramp, seed)
    blind = np.array([order_blind(*evaluation[n]) for n in lengths])
    return Extrapolation(lengths, {k: np.array(v) for k, v in accuracies.items()}, blind,
                         largest_gradient, row_change, losses, train_length, vocab,
                         d_model, n_heads, steps, fine_tune_steps, fine_tune_lr, tuple(yarn_ramp), seed,
                         time.perf_counter() - start)


def _fine_tuned(rope: TinyModel, train_length: int, lengths, evaluation, vocab: int, batch: int, lr: float,
                steps: int, yarn_ramp, seed: int) -> list[float]:
    """Accuracies of the RoPE model after ``steps`` steps at length ``2 L`` under position interpolation at
    factor 2, evaluated with the interpolation factor of each length."""
    model = _stretch_ladders(rope, train_length, 2 * train_length, yarn_ramp)["RoPE + PI"]
    fit(model, _copy_batches(batch, 2 * train_length, vocab, seed + 2), steps, lr=lr)
    d, base = model.head.w_q.out_features, model.head.base
    scores = []
    for n in lengths:
        evaluated = with_ladder(model, scaling.position_interpolation(d, max(1.0, n / train_length), base))
        scores.append(accuracy(evaluated, *evaluation[n]))
    return scores
