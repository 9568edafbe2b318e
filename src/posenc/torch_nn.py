r"""Torch modules for the experiments that need training: a learned absolute position table, one
attention head (optionally with RoPE), and a tiny model that shows which rows of the table training
ever reaches.

The head computes the same numbers as :func:`posenc.attention.self_attention` (and, with ``rope=True``,
as :func:`posenc.rotary.apply_rope` applied to its queries and keys); the tests check this in float64.

A learned table is a matrix :math:`P \in \mathbb{R}^{N\times d}` whose row :math:`p` is added to the token
vector at position :math:`p`, :math:`x_p \leftarrow x_p + P_p`. The loss of a sequence of length
:math:`L` reads rows :math:`0, \ldots, L-1` only, so

.. math:: \frac{\partial\,\text{loss}}{\partial P_p} = 0 \qquad \text{for every } p \ge L,

and an optimiser without weight decay never moves those rows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from . import checks
from .rotary import apply_rope


class LearnedPositions(nn.Module):
    """A learned absolute position table with ``n_positions`` rows of width ``d_model``.

    Row :math:`p` is the vector added to the token at position :math:`p`. The rows are independent
    parameters, initialised like word embeddings (:class:`torch.nn.Embedding`, entries
    :math:`\\mathcal{N}(0, 1)`); nothing ties row :math:`p` to row :math:`p + 1`.

    >>> table = LearnedPositions(1024, 8)
    >>> table(5).shape             # the rows for positions 0..4
    torch.Size([5, 8])
    """

    def __init__(self, n_positions: int, d_model: int):
        super().__init__()
        self.table = nn.Embedding(n_positions, d_model)

    @property
    def n_positions(self) -> int:
        return self.table.num_embeddings

    def forward(self, positions: int | torch.Tensor) -> torch.Tensor:
        """Rows for ``positions``: an int ``seq`` means ``0, ..., seq - 1``; a tensor of integer
        positions gives a tensor of its shape plus ``(d_model,)``."""
        if isinstance(positions, int):
            positions = torch.arange(positions, device=self.table.weight.device)
        if positions.numel():
            last = int(positions.max())
            if last >= self.n_positions:
                raise IndexError(
                    f"LearnedPositions: no row for position {last}; the table has rows 0..{self.n_positions - 1}"
                )
            if int(positions.min()) < 0:
                raise IndexError(f"LearnedPositions: positions start at 0, got {int(positions.min())}")
        return self.table(positions)


class SelfAttentionHead(nn.Module):
    r"""One head of self-attention, :math:`\operatorname{softmax}(QK^\top/\sqrt{d})V` with
    :math:`Q = XW_Q`, :math:`K = XW_K`, :math:`V = XW_V` (no biases).

    With ``rope=True`` the queries and keys are rotated by :func:`posenc.rotary.apply_rope` before the
    scores are formed, :math:`q_m \mapsto \Theta_m q_m`, :math:`k_n \mapsto \Theta_n k_n`; with
    ``causal=True`` query :math:`m` sees keys :math:`0, \ldots, m` only.
    """

    def __init__(self, d_model: int, d_head: int, *, rope: bool = False, base: float = 10000.0,
                 causal: bool = False, dtype: torch.dtype | None = None):
        super().__init__()
        if rope and d_head % 2:
            raise ValueError(f"SelfAttentionHead: RoPE rotates pairs, so d_head must be even, got d_head={d_head}")
        self.w_q, self.w_k, self.w_v = (nn.Linear(d_model, d_head, bias=False, dtype=dtype) for _ in range(3))
        self.rope, self.base, self.causal = rope, base, causal

    @classmethod
    def from_matrices(cls, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray, **options) -> SelfAttentionHead:
        """A float64 head with the numpy weights of :func:`posenc.attention.self_attention`
        (shape ``(d_model, d_head)``, applied as ``x @ w_q``)."""
        head = cls(*np.shape(w_q), dtype=torch.float64, **options)
        with torch.no_grad():
            for linear, w in ((head.w_q, w_q), (head.w_k, w_k), (head.w_v, w_v)):
                linear.weight.copy_(torch.as_tensor(np.asarray(w).T))  # nn.Linear stores W^T
        return head

    def forward(self, x: torch.Tensor, positions=None) -> torch.Tensor:
        """Outputs for token vectors ``x`` of shape ``(..., seq, d_model)``, shape ``(..., seq, d_head)``.

        ``positions`` (used with RoPE only) defaults to ``0, ..., seq - 1``.
        """
        q, k, v = self.w_q(x), self.w_k(x), self.w_v(x)  # (..., seq, d_head)
        if self.rope:
            q, k = apply_rope(q, positions, base=self.base), apply_rope(k, positions, base=self.base)
        scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])  # (..., seq, seq)
        if self.causal:
            seq = x.shape[-2]
            allowed = torch.ones(seq, seq, dtype=torch.bool, device=x.device).tril()
            scores = scores.masked_fill(~allowed, float("-inf"))
        return torch.softmax(scores, dim=-1) @ v


class TinyModel(nn.Module):
    """The smallest language model with a learned position table: token embedding plus position row,
    one causal attention head with a residual connection, and a linear read-out to the vocabulary."""

    def __init__(self, vocab: int, d_model: int, n_positions: int):
        super().__init__()
        self.tokens = nn.Embedding(vocab, d_model)
        self.positions = LearnedPositions(n_positions, d_model)
        self.head = SelfAttentionHead(d_model, d_model, causal=True)
        self.readout = nn.Linear(d_model, vocab)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        """Logits of shape ``(batch, seq, vocab)`` for integer ``tokens`` of shape ``(batch, seq)``."""
        x = self.tokens(tokens) + self.positions(tokens.shape[-1])  # (batch, seq, d_model)
        return self.readout(x + self.head(x))


def lagged_copy_batch(batch: int, length: int, vocab: int, lag: int,
                      generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """Random tokens and the task "repeat the token ``lag`` positions back": ``target[t] = tokens[t - lag]``.

    The first ``lag`` targets do not exist and are marked ``-100`` (ignored by the loss).
    """
    who = "lagged_copy_batch"
    batch, length, vocab = (checks.integer(v, name, who, minimum=1)
                            for v, name in ((batch, "batch"), (length, "length"), (vocab, "vocab")))
    lag = checks.integer(lag, "lag", who, minimum=1)
    if lag >= length:
        raise ValueError(f"{who}: lag must be shorter than the sequence, got lag={lag} and length={length}")
    tokens = torch.randint(vocab, (batch, length), generator=generator)
    targets = torch.full_like(tokens, -100)
    targets[:, lag:] = tokens[:, :-lag]
    return tokens, targets


@dataclass(frozen=True)
class BriefTraining:
    """What :func:`train_briefly` measured: the position table before and after (``(n_positions, d_model)``),
    the largest gradient each row ever received, the loss of every step, and the settings."""

    initial_table: np.ndarray
    final_table: np.ndarray
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
                  seed: int = 0) -> BriefTraining:
    """Train a :class:`TinyModel` with ``n_positions`` table rows on sequences of ``train_length`` tokens.

    The task is :func:`lagged_copy_batch` ("repeat the token ``lag`` back"), the optimiser AdamW with the
    given ``weight_decay`` (``0`` makes it plain Adam). Seeded: the same numbers every run. A second or
    two on a CPU with the defaults.
    """
    n_positions = checks.integer(n_positions, "n_positions", "train_briefly", minimum=1)
    train_length = checks.integer(train_length, "train_length", "train_briefly")
    if not 0 < train_length <= n_positions:
        raise ValueError(
            f"train_briefly: train_length must be between 1 and n_positions={n_positions}, got {train_length}"
        )
    torch.manual_seed(seed)
    data = torch.Generator().manual_seed(seed)
    model = TinyModel(vocab, d_model, n_positions)
    table = model.positions.table.weight
    initial = table.detach().numpy().copy()
    largest_gradient = np.zeros(n_positions)
    optimiser = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=weight_decay)
    losses = []
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # a model this small runs fastest, and steadiest on a busy machine, in one thread
    try:
        for _ in range(steps):
            tokens, targets = lagged_copy_batch(batch, train_length, vocab, lag, data)
            logits = model(tokens)  # (batch, train_length, vocab)
            loss = nn.functional.cross_entropy(logits.flatten(0, 1), targets.flatten(), ignore_index=-100)
            optimiser.zero_grad()
            loss.backward()
            largest_gradient = np.maximum(largest_gradient, table.grad.abs().amax(dim=1).numpy())
            optimiser.step()
            losses.append(loss.item())
    finally:
        torch.set_num_threads(threads)
    return BriefTraining(initial, table.detach().numpy().copy(), largest_gradient, np.array(losses),
                         train_length, steps, batch, lr, weight_decay)
