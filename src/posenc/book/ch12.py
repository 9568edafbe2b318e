"""The settings and the experiment of chapter 12, *Sinks and stacks*

The configurations the chapter computes with are transformers' defaults, the values its configuration classes set
when given no arguments (GPT-OSS, ``cohere2``, Qwen3-Next, Kimi Linear); tests/ch12/test_ch12.py compares each with
transformers. A default need not be a release's: ``RELEASED`` holds what the released configurations state where
they differ, quoted from the checkpoints' ``config.json`` and not tested here. ``STREAMING_LLM`` holds the cache
sizes of StreamingLLM's code, ``XIAO_TABLE_1`` the perplexities the chapter quotes from Xiao et al. (2024) and
``RULER`` what it quotes from Hsieh et al. (2024).

The chapter's retrieval experiment is here too (:func:`retrieval_experiment`): tiny models of two layers trained
at one length :math:`L_0` on a passkey and a key-value task (:func:`needle_batch`), asked at longer ones, with a
look at their attention that tells a needle not found from one found and misread.
"""

from __future__ import annotations

from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np
import torch

from posenc import scaling, validation
from posenc.torch_nn import TinyModel, with_ladder
from posenc.training import fit, one_thread

from .glue import markdown_table, percent_range, times_l0
from .style import MUTED, PALETTE

GPT_OSS = {"n_layers": 36, "window": 128, "d": 64, "base": 150000.0, "factor": 32.0, "original_context": 4096,
           "beta_fast": 32.0, "beta_slow": 1.0, "truncate": False}  # GptOssConfig defaults (YaRN)
COHERE2 = {"n_layers": 40, "window": 4096, "d": 128, "base": 10000.0,
           "every": 4}  # Cohere2Config defaults; every: one layer in so many is full attention
QWEN3_NEXT = {"n_layers": 48, "d": 256, "partial_rotary_factor": 0.25, "base": 10000.0,
              "every": 4}  # Qwen3NextConfig defaults
KIMI_LINEAR = {"n_layers": 27, "d_nope": 128, "d_rope": 64}  # KimiLinearConfig defaults

RELEASED = {
    "gpt-oss-20b": {"n_layers": 24},
    "command-r7b": {"n_layers": 32, "base": 50000.0, "window": 4096, "every": 4},
    "command-a": {"n_layers": 64, "base": 50000.0, "window": 4096, "every": 4},
    "qwen3-next-80b-a3b": {"base": 1e7},
    "kimi-linear-48b-a3b": {"full_attn_layers": [4, 8, 12, 16, 20, 24, 27]},  # counted from 1
}
STREAMING_LLM = {"keyword_defaults": (4, 512), "demo": (4, 2000), "perplexity_script": (1, 255)}  # (sinks, window)
XIAO_TABLE_1 = {"line_breaks": 5.60, "first_four": 5.40, "window": 5158.0}  # Llama-2-13B, PG19, four kept tokens
RULER = {"models": 17, "claimed": 32 * 1024}  # Hsieh et al. (2024): models run, the least context each claims


# The retrieval experiment: a haystack of WORDS tokens with a needle in it, then a question at the end.
WORDS, MARKED = 16, 4          # tokens 0..15 are words, 16..19 marked tokens; 20 is the passkey's question
QUESTION = WORDS + MARKED
RETRIEVAL_TASKS = ("passkey", "key-value")
TRAINED = {"RoPE": "rope", "ALiBi": "alibi", "NoPE": "none"}
RESCALED = ("RoPE + PI", "RoPE + NTK-aware", "RoPE + YaRN")   # the trained RoPE model, its ladder rescaled
RETRIEVAL_METHODS = ("RoPE", *RESCALED, "ALiBi", "NoPE")
STEPS = {"passkey": 40, "key-value": 250}   # training steps: the passkey is learned far sooner
FOUND = 0.5   # a needle is found when some head gives its answer at least this share of the question's weight


def needle_batch(task: str, batch: int, length: int, generator: torch.Generator, depths=None):
    r"""Sequences of ``length`` random words with one needle, the question last, and the answer as the target of
    the last position (every other target is ``-100``). Returns ``tokens``, ``targets`` and the position
    :math:`p` of the answer in the haystack, drawn from :math:`1, \ldots, L - 2` or given as ``depths``.

    In the ``"passkey"`` task the needle is a marked token at :math:`p` and the question is the token
    :data:`QUESTION`: the answer is the only marked token, found by what it is. In ``"key-value"`` a marked token
    (the key) sits at :math:`p - 1`, the question repeats it, and the answer is the word at :math:`p` (the
    value): the model must find the key, then read the token after it, which takes position.
    """
    who = "needle_batch"
    task = validation.option(task, RETRIEVAL_TASKS, "task", who)
    length = validation.integer(length, "length", who, minimum=3)
    tokens = torch.randint(0, WORDS, (batch, length), generator=generator)
    marked = torch.randint(WORDS, WORDS + MARKED, (batch,), generator=generator)
    at = torch.randint(1, length - 1, (batch,), generator=generator) if depths is None else torch.as_tensor(depths)
    if at.shape != (batch,) or at.min() < 1 or at.max() > length - 2:
        raise ValueError(f"{who}: depths must be {batch} positions between 1 and {length - 2}, got {at.tolist()}")
    rows = torch.arange(batch)
    if task == "passkey":
        tokens[rows, at], tokens[:, -1] = marked, QUESTION
    else:
        tokens[rows, at - 1], tokens[:, -1] = marked, marked
    targets = torch.full_like(tokens, -100)
    targets[:, -1] = tokens[rows, at]
    return tokens, targets, at


@dataclass(frozen=True)
class Retrieval:
    r"""What :func:`retrieval_experiment` measured. For every task, method, seed and length :math:`L'` the models
    answered one question with the needle at each depth :math:`p = 1, \ldots, L' - 2`, ``repeats`` times:
    ``correct[task][method][length]`` (shape ``(len(seeds), repeats (L' - 2))``) says whether the answer was
    right, ``found[...]`` whether some head of some layer gave the needle's answer at least :data:`FOUND` of its
    weight at the question, and ``depths[length]`` is the position of the answer in each sequence."""

    train_length: int
    lengths: tuple[int, ...]
    seeds: tuple[int, ...]
    correct: dict[str, dict[str, dict[int, np.ndarray]]]
    found: dict[str, dict[str, dict[int, np.ndarray]]]
    depths: dict[int, np.ndarray]

    def accuracy(self, task: str, method: str) -> np.ndarray:
        """The share of right answers, shape ``(len(seeds), len(lengths))``."""
        return np.array([self.correct[task][method][n].mean(axis=1) for n in self.lengths]).T

    def outcomes(self, task: str, method: str, length: int) -> np.ndarray:
        """Per seed, the shares of questions answered right, answered wrong although found, and not found
        and answered wrong (the found ones answered right are in the first), shape ``(len(seeds), 3)``."""
        right, found = self.correct[task][method][length], self.found[task][method][length]
        return np.stack([right.mean(1), (found & ~right).mean(1), (~found & ~right).mean(1)], axis=1)

    def markdown_table(self) -> str:
        r"""The share of right answers as a Markdown table: a row per method, a column per task and length
        (as multiples of :math:`L_0`), each cell the range over the seeds (:func:`~posenc.book.glue.percent_range`)."""
        tasks = list(self.correct)
        header = ["scheme", *(f"{task}, {t}" for task in tasks for t in times_l0(self.lengths, self.train_length))]
        return markdown_table(header, [[method, *(percent_range(column) for task in tasks
                                                  for column in self.accuracy(task, method).T)]
                                       for method in RETRIEVAL_METHODS])

    def control_table(self, task: str, lengths) -> str:
        """:meth:`outcomes` at each of ``lengths`` as a Markdown table, a row per method, each cell the range over
        the seeds."""
        header = ["scheme", *(f"{what}, {t}" for t in times_l0(lengths, self.train_length)
                              for what in ("right", "misread", "not found"))]
        return markdown_table(header, [[method, *(percent_range(column) for n in lengths
                                                  for column in self.outcomes(task, method, n).T)]
                                       for method in RETRIEVAL_METHODS])


def _rescaled(model: TinyModel, factor: float, train_length: int) -> dict[str, TinyModel]:
    """The trained RoPE ``model`` with the ladders of :data:`RESCALED` for the factor :math:`s`: position
    interpolation, NTK-aware scaling, and YaRN as its paper configures it (with its temperature)."""
    d, base = model.head.w_q.out_features, model.head.base
    return {"RoPE + PI": with_ladder(model, scaling.position_interpolation(d, factor, base)),
            "RoPE + NTK-aware": with_ladder(model, scaling.ntk_aware(d, factor, base)),
            "RoPE + YaRN": with_ladder(model, scaling.yarn(d, factor, train_length, base),
                                       scaling.yarn_attention_scale(factor))}


def _answers(model: TinyModel, tokens: torch.Tensor, targets: torch.Tensor, at: torch.Tensor):
    """Whether each question was answered right, and whether some head of some layer gave the answer's
    position ``at`` at least :data:`FOUND` of the question's weight."""
    with torch.no_grad(), one_thread():
        stream = model.residual(tokens)
        right = model.readout(stream[-1][:, -1]).argmax(-1) == targets[:, -1]
        weights = torch.stack([head.weights(x)[:, -1] for x, layer in zip(stream[:-1], model.layers, strict=True)
                               for head in layer], dim=1)  # (batch, layers x heads, seq): the question's row
    found = weights[torch.arange(len(at)), :, at].amax(dim=1) >= FOUND
    return right.numpy(), found.numpy()


def retrieval_experiment(*, tasks=RETRIEVAL_TASKS, train_length: int = 16, lengths=(16, 32, 64), seeds=(0, 1, 2),
                         d_model: int = 32, n_heads: int = 4, n_layers: int = 2, steps=None, batch: int = 64,
                         lr: float = 1e-2, repeats: int = 2) -> Retrieval:
    r"""Train a :class:`~posenc.torch_nn.TinyModel` of ``n_layers`` layers for every task of
    :data:`RETRIEVAL_TASKS`, scheme of :data:`TRAINED` and seed at ``train_length`` with :func:`needle_batch`,
    then ask every method of :data:`RETRIEVAL_METHODS` at each of ``lengths``; the RoPE model is also run with
    the ladders of :data:`RESCALED` at :math:`s = \max(1, L'/L_0)`, without further training.

    Seeded: the weights from ``torch.manual_seed(seed)``, the training batches from a generator seeded
    ``2 seed`` (the same for every scheme), the questions from one seeded ``2 seed + 1``.
    """
    lengths, seeds, steps = tuple(lengths), tuple(seeds), STEPS | (steps or {})
    depths = {n: np.tile(np.arange(1, n - 1), repeats) for n in lengths}
    correct, found = ({task: {} for task in tasks} for _ in range(2))
    for task, seed in ((task, seed) for task in tasks for seed in seeds):
        questions = {n: needle_batch(task, len(depths[n]), n, torch.Generator().manual_seed(2 * seed + 1), depths[n])
                     for n in lengths}
        for name, scheme in TRAINED.items():
            torch.manual_seed(seed)
            model = TinyModel(QUESTION + 1, d_model, position=scheme, n_heads=n_heads, n_layers=n_layers)
            training = torch.Generator().manual_seed(2 * seed)
            fit(model, lambda: needle_batch(task, batch, train_length, training)[:2], steps[task], lr=lr)  # noqa: B023
            for n in lengths:
                asked = {name: model} | (_rescaled(model, max(1.0, n / train_length), train_length)
                                         if scheme == "rope" else {})
                for method, version in asked.items():
                    right, seen = _answers(version, *questions[n])
                    correct[task].setdefault(method, {}).setdefault(n, []).append(right)
                    found[task].setdefault(method, {}).setdefault(n, []).append(seen)
    arrays = [{task: {method: {n: np.array(rows) for n, rows in by_length.items()}
                      for method, by_length in table[task].items()} for task in tasks}
              for table in (correct, found)]
    return Retrieval(train_length, lengths, seeds, *arrays, depths)


def needle_depths(result: Retrieval, task: str, length: int, group: int = 8):
    """The share of right answers of every method, over all seeds, against the answer's distance from the question
    at ``length``, the distances taken ``group`` at a time (the last group may be smaller); a grey line at the
    longest distance training showed, :math:`L_0 - 2`."""
    distance = length - 1 - result.depths[length]
    bins = (distance - 1) // group
    centres = [distance[bins == b].mean() for b in np.unique(bins)]
    fig, ax = plt.subplots(figsize=(7.0, 3.0), constrained_layout=True)
    for method, colour in zip(RETRIEVAL_METHODS, PALETTE, strict=True):
        right = result.correct[task][method][length]  # (seeds, questions)
        ax.plot(centres, [100 * right[:, bins == b].mean() for b in np.unique(bins)], marker="o", markersize=3.5,
                linewidth=1.3, color=colour, linestyle="--" if method in RESCALED else "-", label=method)
    ax.axvline(result.train_length - 2, color=MUTED, linewidth=0.8)
    ax.set_ylim(0, 105)
    ax.set_xlabel("distance from the answer to the question (tokens)")
    ax.set_ylabel("answered right (%)")
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8.5)
    return fig
