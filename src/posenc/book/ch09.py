r"""Chapter 9's experiment and figures: tiny models with five position schemes, trained at one length :math:`L_0`
on two copy tasks and evaluated at longer ones :math:`L'`, on several seeds.

The **block copy** (:func:`copy_batch`) asks for the offset :math:`-L'/2`, which grows with the input; the
**lag copy** (:func:`posenc.training.lagged_copy_batch`) asks for :math:`-\text{lag}` at every length. The
trained RoPE model is also run with the ladders of :mod:`posenc.scaling` (:data:`STRETCHED`). Every
(task, seed) pair is one job, seeded on its own, run on one thread (the models are too small for threads to help).
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial

import matplotlib.pyplot as plt
import numpy as np
import torch
from torch import nn

from posenc import scaling, validation
from posenc.torch_nn import TinyModel, with_ladder
from posenc.training import fit, fit_watching_table, lagged_copy_batch, one_thread

from .glue import markdown_table, percent_range, times_l0
from .style import INK, MUTED, PALETTE


def copy_batch(batch: int, length: int, vocab: int, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """The block copy: the first half of each sequence is random tokens ``1 .. vocab - 1``, the second half is
    the blank token ``0``, and the target at blank position ``t`` is the token ``length // 2`` places back,
    ``target[t] = tokens[t - length // 2]``: the model writes the first half out again.

    The first half has no targets (``-100``). Copying a block of ``n`` tokens needs attention at offset
    ``-n``, so the offset the task asks for grows with the input.
    """
    who = "copy_batch"
    batch = validation.integer(batch, "batch", who, minimum=1)
    length = validation.integer(length, "length", who, minimum=2)
    vocab = validation.integer(vocab, "vocab", who, minimum=2)
    if length % 2:
        raise ValueError(f"{who}: length must be even (a block and its copy), got length={length}")
    half = length // 2
    block = torch.randint(1, vocab, (batch, half), generator=generator)
    tokens = torch.cat([block, torch.zeros_like(block)], dim=1)
    targets = torch.cat([torch.full_like(block, -100), block], dim=1)
    return tokens, targets


def accuracy(model: nn.Module, tokens: torch.Tensor, targets: torch.Tensor) -> float:
    """The fraction of positions with a target (not ``-100``) where the model's most likely token is the target."""
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
    half = tokens.shape[-1] // 2
    counts = torch.nn.functional.one_hot(tokens[:, :half]).sum(dim=1)  # (batch, vocab)
    return float(counts.max(dim=1).values.sum() / (targets != -100).sum())


SCHEMES = {"NoPE": "none", "ALiBi": "alibi", "learned table": "learned", "sinusoidal table": "sinusoidal",
           "RoPE": "rope"}
TASKS = ("block copy", "lag copy")
#: The trained RoPE model run with another ladder: position interpolation at s = L'/L0 and at a fixed s,
#: YaRN as its paper configures it (alpha = 1, beta = 32, temperature), Llama 3.1's rule (beta = 4). The names
#: carry their math in $...$, for the table and the figure's legend.
PI, PI_FIXED, YARN, LLAMA = STRETCHED = ("RoPE, interpolation at $s = L'/L_0$", "RoPE, interpolation at fixed $s$",
                                         r"RoPE, YaRN ($\beta = 32$, temperature)", r"RoPE, Llama 3.1 ($\beta = 4$)")
METHODS = (*SCHEMES, *STRETCHED)


@dataclass(frozen=True)
class Settings:
    """What every job of :func:`run_experiment` shares: the task sizes, the models and their training."""

    train_length: int
    lengths: tuple[int, ...]
    vocab: int
    d_model: int
    n_heads: int
    steps: int
    batch: int
    lr: float
    lag: int
    fixed_factor: float
    eval_batch: int


@dataclass(frozen=True)
class Extrapolation:
    """What :func:`run_experiment` measured, with its ``settings`` and ``seeds``.

    ``accuracy[task][method]`` has shape ``(len(seeds), len(lengths))``: one row per seed, one column per
    evaluation length, for every task of :data:`TASKS` and method of :data:`METHODS`. ``order_blind`` (same
    shape) is the accuracy on the block copy of a reader who knows the block but not its order
    (:func:`order_blind`). For every row of the learned tables (``max(lengths)`` rows, ``train_length`` of
    them trained), ``largest_gradient`` and ``row_change`` are the largest gradient it received and the
    largest change training made to it, over every seed and task; ``final_loss[task][scheme]`` is the
    training loss of each seed's last step."""

    settings: Settings
    seeds: tuple[int, ...]
    accuracy: dict[str, dict[str, np.ndarray]]
    order_blind: np.ndarray
    largest_gradient: np.ndarray
    row_change: np.ndarray
    final_loss: dict[str, dict[str, np.ndarray]]

    @property
    def lengths(self) -> tuple[int, ...]:
        return self.settings.lengths

    def chance(self, task: str) -> float:
        """The accuracy of a uniform guess: one in ``vocab - 1`` content tokens for the block copy, one in
        ``vocab`` for the lag copy."""
        return 1.0 / (self.settings.vocab - (task == "block copy"))

    def markdown_table(self) -> str:
        """The accuracies as a Markdown table: a row per method, a column per task and length (as multiples of
        :math:`L_0`), each cell the range over the seeds in percent (:func:`~posenc.book.glue.percent_range`); a last
        row for the best order-blind guess on the block copy (a dash for the lag copy)."""
        columns = range(len(self.lengths))
        header = ["positions", *(f"{task}, {t}" for task in TASKS for t in times_l0(self.lengths,
                                                                                   self.settings.train_length))]
        methods = [[method, *(percent_range(self.accuracy[task][method][:, i]) for task in TASKS for i in columns)]
                   for method in METHODS]
        blind = [percent_range(self.order_blind[:, i]) for i in columns]
        return markdown_table(header, [*methods, ["best order-blind guess", *blind, *["\N{EN DASH}"] * len(columns)]])


def _batches(task: str, settings: Settings, length: int, batch: int, generator: torch.Generator):
    """One batch of ``task`` at ``length``."""
    if task == "block copy":
        return copy_batch(batch, length, settings.vocab, generator)
    return lagged_copy_batch(batch, length, settings.vocab, settings.lag, generator)


def _stretched(model: TinyModel, settings: Settings, length: int) -> dict[str, TinyModel]:
    """The trained RoPE ``model`` with the ladders of :data:`STRETCHED` for an input of ``length``
    :math:`L'`; all but the fixed interpolation use the factor :math:`s = \\max(1, L'/L_0)`."""
    factor = max(1.0, length / settings.train_length)
    d, base, context = model.head.w_q.out_features, model.head.base, settings.train_length
    ladders = (scaling.position_interpolation(d, factor, base),
               scaling.position_interpolation(d, settings.fixed_factor, base),
               scaling.yarn(d, factor, context, base, alpha=1.0, beta=32.0),
               scaling.llama3(d, factor, 1.0, 4.0, context, base))
    scales = (1.0, 1.0, scaling.yarn_attention_scale(factor), 1.0)
    return {name: with_ladder(model, ladder, scale) for name, ladder, scale in zip(STRETCHED, ladders, scales,
                                                                                   strict=True)}


@contextmanager
def _deterministic():
    """Run the block with torch's deterministic algorithms, restoring the previous setting afterwards."""
    before = torch.are_deterministic_algorithms_enabled()
    torch.use_deterministic_algorithms(True)
    try:
        yield
    finally:
        torch.use_deterministic_algorithms(before)


def _job(task: str, seed: int, settings: Settings) -> dict:
    """Train the five schemes on ``task`` with ``seed`` and evaluate every method at every length: model
    weights from ``torch.manual_seed(seed)``, training batches from a generator seeded ``2 seed``,
    evaluation batches from one seeded ``2 seed + 1``."""
    with _deterministic():
        evaluation = {n: _batches(task, settings, n, settings.eval_batch, torch.Generator().manual_seed(2 * seed + 1))
                      for n in settings.lengths}
        scores, losses, rope, table = {}, {}, None, None
        for name, scheme in SCHEMES.items():
            torch.manual_seed(seed)
            model = TinyModel(settings.vocab, settings.d_model, max(settings.lengths) if scheme == "learned" else None,
                              position=scheme, n_heads=settings.n_heads)
            batches = partial(_batches, task, settings, settings.train_length, settings.batch,
                              torch.Generator().manual_seed(2 * seed))  # the same batches for every scheme
            if scheme == "learned":
                trained, before, after, largest_gradient = fit_watching_table(model, batches, settings.steps,
                                                                              lr=settings.lr)
                table = largest_gradient, np.max(np.abs(after - before), axis=1)
            else:
                trained = fit(model, batches, settings.steps, lr=settings.lr)
            losses[name] = float(trained[-1])
            scores[name] = [accuracy(model, *evaluation[n]) for n in settings.lengths]
            rope = model if scheme == "rope" else rope
        stretched = {n: _stretched(rope, settings, n) for n in settings.lengths}
        for name in STRETCHED:
            scores[name] = [accuracy(stretched[n][name], *evaluation[n]) for n in settings.lengths]
        blind = [order_blind(*evaluation[n]) for n in settings.lengths] if task == "block copy" else None
    return {"accuracy": scores, "loss": losses, "table": table, "order_blind": blind}


def run_experiment(*, train_length: int = 32, lengths=(32, 64, 128), seeds=(0, 1, 2), vocab: int = 17,
                   d_model: int = 32, n_heads: int = 4, steps: int = 150, batch: int = 16, lr: float = 1e-2,
                   lag: int = 8, fixed_factor: float = 4.0, eval_batch: int = 64) -> Extrapolation:
    """Train one :class:`~posenc.torch_nn.TinyModel` per scheme of :data:`SCHEMES`, task of :data:`TASKS` and
    seed of ``seeds`` at ``train_length``, and measure every method of :data:`METHODS` at each of ``lengths``
    (see the module's docstring).

    Seeded: each job sets its own seeds (:func:`_job`), so two runs on one machine give identical numbers.
    ``fixed_factor`` is the one factor of the fixed position interpolation (by default the longest length ratio, 4).
    """
    who = "run_experiment"
    train_length = validation.integer(train_length, "train_length", who, minimum=2)
    lengths = tuple(validation.integer(n, "lengths", who, minimum=2) for n in lengths)
    seeds = tuple(validation.integer(s, "seeds", who, minimum=0) for s in seeds)
    vocab = validation.integer(vocab, "vocab", who, minimum=2)
    lag = validation.integer(lag, "lag", who, minimum=1)
    if lag >= min(train_length, *lengths):
        raise ValueError(f"{who}: lag must be shorter than every length, got lag={lag}")
    settings = Settings(train_length, lengths, vocab, d_model, n_heads, steps, batch, lr, lag,
                        validation.real(fixed_factor, "fixed_factor", who, at_least=1.0), eval_batch)
    jobs = [(task, seed) for task in TASKS for seed in seeds]
    done = {job: _job(*job, settings) for job in jobs}
    accuracies = {task: {method: np.array([done[task, s]["accuracy"][method] for s in seeds]) for method in METHODS}
                  for task in TASKS}
    losses = {task: {name: np.array([done[task, s]["loss"][name] for s in seeds]) for name in SCHEMES}
              for task in TASKS}
    gradients, changes = zip(*(result["table"] for result in done.values()), strict=True)
    blind = np.array([done["block copy", s]["order_blind"] for s in seeds])
    return Extrapolation(settings, seeds, accuracies, blind, np.max(gradients, axis=0), np.max(changes, axis=0),
                         losses)



def base_wavelengths(wavelengths: dict[str, np.ndarray], contexts: dict[str, int]):
    """Wavelength of every hand (positions per full turn, log scale) for each base in ``wavelengths``,
    with a dotted horizontal line at each context length in ``contexts`` (label: tokens)."""
    fig, ax = plt.subplots(figsize=(7.0, 3.0), constrained_layout=True)
    for (label, values), colour in zip(wavelengths.items(), PALETTE, strict=False):
        ax.semilogy(np.arange(len(values)), values, "o", markersize=3.5, color=colour, label=label)
    for label, length in contexts.items():
        ax.axhline(length, color=MUTED, linestyle=":", linewidth=0.9)
        ax.text(0, length * 1.15, label, color=INK, fontsize=8.5, va="bottom")
    ax.set_xlabel("hand j")
    ax.set_ylabel(r"wavelength $2\pi/\theta_j$ (positions)")
    ax.legend(loc="lower right")
    return fig


def scaled_ladders(theta: np.ndarray, ladders: dict[str, np.ndarray]):
    """One small panel per method: its ladder :math:`\\theta'_j` (colour) over the original
    :math:`\\theta_j` (grey), radians per position on a log scale against the hand index."""
    fig, axes = plt.subplots(1, len(ladders), figsize=(7.4, 2.6), sharey=True, constrained_layout=True)
    hands = np.arange(len(theta))
    for ax, (name, scaled), colour in zip(axes, ladders.items(), PALETTE, strict=False):
        ax.semilogy(hands, theta, color=MUTED, linewidth=2.2, label="original")
        ax.semilogy(hands, scaled, color=colour, linewidth=1.4, label="scaled")
        ax.set_title(name)
        ax.set_xlabel("hand j")
    axes[0].set_ylabel(r"$\theta_j$ (radians per position)")
    axes[0].legend(loc="lower left", fontsize=8)
    return fig


def scaling_ratios(turns: np.ndarray, ratios: dict[str, np.ndarray], factor: float):
    """How much each method slows each hand, :math:`\\theta'_j/\\theta_j`, against the number of turns the
    hand makes over the original context, :math:`r_j = L_0/\\lambda_j` (log scale, fast hands on the right)."""
    fig, ax = plt.subplots(figsize=(7.0, 3.0), constrained_layout=True)
    for (name, ratio), colour in zip(ratios.items(), PALETTE, strict=False):
        ax.semilogx(turns, ratio, marker="o", markersize=2.5, linewidth=1.2, color=colour, label=name)
    ax.axvline(1.0, color=MUTED, linestyle=":", linewidth=0.9)
    ax.set_yscale("log", base=2)
    ax.set_ylim(0.8 / factor, 1.25)
    ax.set_xlabel(r"turns over the original context, $r_j = L_0/\lambda_j$")
    ax.set_ylabel(r"$\theta'_j\,/\,\theta_j$")
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8.5)
    return fig


def decay_curves(distances: np.ndarray, curves: dict[str, np.ndarray], octaves: dict[str, tuple], level: float):
    """RoFormer's relative bound over the distance (thin lines, log x), the mean over each octave of
    distances (steps, ``octaves`` maps a label to ``(edges, means)``) and the random-walk level."""
    fig, ax = plt.subplots(figsize=(7.0, 3.1), constrained_layout=True)
    for (label, values), colour in zip(curves.items(), PALETTE, strict=False):
        edges, means = octaves[label]
        ax.semilogx(distances, values, linewidth=0.5, alpha=0.45, color=colour)
        ax.stairs(means, edges, baseline=None, linewidth=2.0, color=colour, label=f"{label} (octave mean)")
    ax.axhline(level, color=INK, linestyle="--", linewidth=0.9, label="random-walk level")
    ax.set_xlabel(r"distance $|\Delta|$ (positions)")
    ax.set_ylabel(r"mean over $j$ of $|S_j(\Delta)|$")
    ax.legend(loc="upper right", fontsize=8.5)
    return fig
