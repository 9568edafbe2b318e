r"""Torch modules: a learned absolute position table, one causal attention head (with RoPE, a rescaled RoPE ladder
or ALiBi's bias, or with none), and a tiny model of one or more layers with a choice of position scheme, small
enough to train in seconds. The head computes the same numbers as :func:`posenc.attention.attention` with
:func:`posenc.attention.causal_mask` (and, with ``rope=True``, with :func:`posenc.rotary.apply_rope` applied to its
queries and keys).

A learned table :math:`P \in \mathbb{R}^{N\times d}` adds row :math:`p` to the token at position :math:`p`; the loss
of a sequence of length :math:`L` reads rows :math:`0, \ldots, L-1` only, so
:math:`\partial\,\text{loss}/\partial P_p = 0` for every :math:`p \ge L`.
"""

from __future__ import annotations

import copy
import math

import torch
from torch import nn

from . import validation
from .alibi import alibi_bias, alibi_slopes
from .rotary import apply_rope, rope_with_ladder
from .sinusoidal import sinusoidal_table

POSITION_SCHEMES = ("none", "learned", "sinusoidal", "rope", "alibi")


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

    def forward(self, seq: int) -> torch.Tensor:
        """The rows for positions ``0, ..., seq - 1``, shape ``(seq, d_model)``."""
        seq = validation.integer(seq, "seq", "LearnedPositions", minimum=0)
        if seq > self.n_positions:
            raise IndexError(f"LearnedPositions: no row for position {seq - 1}; the table has rows "
                             f"0..{self.n_positions - 1}")
        return self.table(torch.arange(seq, device=self.table.weight.device))


class SelfAttentionHead(nn.Module):
    r"""One head of causal self-attention, :math:`\operatorname{softmax}(QK^\top/\sqrt{d})V` with
    :math:`Q = XW_Q`, :math:`K = XW_K`, :math:`V = XW_V` (no biases), query :math:`m` seeing keys
    :math:`0, \ldots, m` only.

    With ``rope=True`` the queries and keys are rotated by :func:`posenc.rotary.apply_rope` before the
    scores are formed, :math:`q_m \mapsto \Theta_m q_m`, :math:`k_n \mapsto \Theta_n k_n`; setting the
    attribute ``frequencies`` to a ladder :math:`\theta'` (shape ``(d_head//2,)``, e.g. from
    :mod:`posenc.scaling`) turns pair :math:`j` by :math:`m\theta'_j` instead
    (:func:`posenc.rotary.rope_with_ladder`), and ``qk_scale`` multiplies the rotated queries and keys
    (YaRN's temperature). With ``alibi_slope`` :math:`\mu` the score gets ALiBi's bias
    :math:`-\mu|m - n|` (:func:`posenc.alibi.alibi_bias`).
    """

    def __init__(self, d_model: int, d_head: int, *, rope: bool = False, base: float = 10000.0,
                 alibi_slope: float | None = None):
        super().__init__()
        if rope and d_head % 2:
            raise ValueError(f"SelfAttentionHead: RoPE rotates pairs, so d_head must be even, got d_head={d_head}")
        if rope and alibi_slope is not None:
            raise ValueError("SelfAttentionHead: choose RoPE or ALiBi, not both (got rope=True and an alibi_slope)")
        self.w_q, self.w_k, self.w_v = (nn.Linear(d_model, d_head, bias=False) for _ in range(3))
        self.rope, self.base = rope, base
        self.alibi_slope = None if alibi_slope is None else validation.real(alibi_slope, "alibi_slope",
                                                                        "SelfAttentionHead", above=0.0)
        self.frequencies, self.qk_scale = None, 1.0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Outputs for token vectors ``x`` of shape ``(..., seq, d_model)`` at positions ``0, ..., seq - 1``, shape
        ``(..., seq, d_head)``."""
        return self.weights(x) @ self.w_v(x)

    def weights(self, x: torch.Tensor) -> torch.Tensor:
        r"""The attention weights for token vectors ``x`` of shape ``(..., seq, d_model)``, shape
        ``(..., seq, seq)``: row :math:`m` is :math:`\operatorname{softmax}_n(q_m^\top k_n/\sqrt{d})` after the
        rotation, the bias and the mask, and sums to 1."""
        q, k = self.w_q(x), self.w_k(x)  # (..., seq, d_head)
        if self.rope:
            q, k = (self._rotate(t) * self.qk_scale for t in (q, k))
        return _softmax_scores(q, k, None if self.alibi_slope is None else [self.alibi_slope])

    def _rotate(self, t: torch.Tensor) -> torch.Tensor:
        if self.frequencies is None:
            return apply_rope(t, base=self.base)
        return rope_with_ladder(t, self.frequencies)


def _softmax_scores(q: torch.Tensor, k: torch.Tensor, slopes) -> torch.Tensor:
    r""":math:`\operatorname{softmax}(qk^\top/\sqrt{d} + B)` for ``q``, ``k`` of shape ``(..., heads, seq, d)`` (or
    ``(..., seq, d)`` for one head), ``B`` ALiBi's bias for ``slopes`` (one per head; none when ``None``), the keys
    after the query masked out."""
    scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])  # (..., seq, seq)
    seq = q.shape[-2]
    if slopes is not None:
        scores = scores + torch.as_tensor(alibi_bias(seq, slopes), dtype=scores.dtype).squeeze(0)
    allowed = torch.ones(seq, seq, dtype=torch.bool, device=q.device).tril()
    return torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)


def _layer(layer: nn.ModuleList, x: torch.Tensor) -> torch.Tensor:
    """``torch.cat([head(x) for head in layer], dim=-1)`` with every head of the layer computed at once: one
    projection, rotation, softmax and product for all of them, a few times faster to train than head by head.
    The heads of a :class:`TinyModel` layer share their rotation (base or ladder, and ``qk_scale``); only ALiBi's
    slope differs from head to head."""
    first, d_head = layer[0], layer[0].w_q.out_features
    weight = torch.cat([torch.cat([head.w_q.weight, head.w_k.weight, head.w_v.weight]) for head in layer])
    q, k, v = (x @ weight.T).unflatten(-1, (len(layer), 3, d_head)).movedim(-4, -3).unbind(-2)  # (..., H, seq, d)
    if first.rope:
        q, k = (first._rotate(t) * first.qk_scale for t in (q, k))
    slopes = None if first.alibi_slope is None else [head.alibi_slope for head in layer]
    return (_softmax_scores(q, k, slopes) @ v).movedim(-3, -2).flatten(-2)


class TinyModel(nn.Module):
    r"""The smallest language model: token embedding, a position scheme, ``n_layers`` causal attention layers
    of ``n_heads`` heads, each with a residual connection, and a linear read-out to the vocabulary.

    ``position`` is one of :data:`POSITION_SCHEMES`: ``"none"`` (NoPE: nothing but the causal mask),
    ``"learned"`` (a :class:`LearnedPositions` table of ``n_positions`` rows added to the tokens),
    ``"sinusoidal"`` (:func:`posenc.sinusoidal.sinusoidal_table` added, for any length), ``"rope"``
    (every head rotates its queries and keys) or ``"alibi"`` (head :math:`h` of every layer adds ALiBi's bias
    with the slope :func:`posenc.alibi.alibi_slopes` gives it). The heads have width ``d_model // n_heads`` and
    a layer's outputs are their concatenation: with :math:`x^{(0)}` the tokens' vectors,
    :math:`x^{(l+1)} = x^{(l)} + [\text{head}_1(x^{(l)}), \ldots, \text{head}_H(x^{(l)})]`.
    """

    def __init__(self, vocab: int, d_model: int, n_positions: int | None = None, *, position: str = "learned",
                 n_heads: int = 1, base: float = 10000.0, n_layers: int = 1):
        super().__init__()
        who = "TinyModel"
        self.position = validation.option(position, POSITION_SCHEMES, "position", who)
        n_heads = validation.integer(n_heads, "n_heads", who, minimum=1)
        n_layers = validation.integer(n_layers, "n_layers", who, minimum=1)
        if d_model % n_heads:
            raise ValueError(f"{who}: d_model must be a multiple of n_heads, got d_model={d_model}, n_heads={n_heads}")
        if (position == "learned") != (n_positions is not None):
            raise ValueError(f"{who}: n_positions is the size of a learned table: give it with position='learned' "
                             f"and only then, got position={position!r}, n_positions={n_positions!r}")
        self.tokens = nn.Embedding(vocab, d_model)
        self.positions = LearnedPositions(n_positions, d_model) if position == "learned" else None
        slopes = alibi_slopes(n_heads) if position == "alibi" else [None] * n_heads
        self.layers = nn.ModuleList(nn.ModuleList(
            SelfAttentionHead(d_model, d_model // n_heads, rope=position == "rope", base=base,
                              alibi_slope=None if slope is None else float(slope))
            for slope in slopes) for _ in range(n_layers))
        self.readout = nn.Linear(d_model, vocab)

    @property
    def head(self) -> SelfAttentionHead:
        """The first head of the first layer (the only one when ``n_layers == n_heads == 1``)."""
        return self.layers[0][0]

    def residual(self, tokens: torch.Tensor) -> list[torch.Tensor]:
        r"""The residual stream :math:`x^{(0)}, \ldots, x^{(L)}` for integer ``tokens`` of shape ``(batch, seq)``:
        what enters each layer, then what leaves the last, each of shape ``(batch, seq, d_model)``."""
        seq = tokens.shape[-1]
        x = self.tokens(tokens)  # (batch, seq, d_model)
        if self.position == "learned":
            x = x + self.positions(seq)
        elif self.position == "sinusoidal":
            x = x + torch.as_tensor(sinusoidal_table(seq, x.shape[-1]), dtype=x.dtype)
        stream = [x]
        for layer in self.layers:
            stream.append(stream[-1] + _layer(layer, stream[-1]))
        return stream

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        """Logits of shape ``(batch, seq, vocab)`` for integer ``tokens`` of shape ``(batch, seq)``."""
        return self.readout(self.residual(tokens)[-1])


def with_ladder(model: TinyModel, frequencies, qk_scale: float = 1.0) -> TinyModel:
    r"""A copy of a RoPE ``model`` whose heads turn pair :math:`j` by :math:`m\theta'_j` for the ladder
    ``frequencies`` and multiply queries and keys by ``qk_scale``; the weights are the same."""
    if model.position != "rope":
        raise ValueError(f"with_ladder: only a RoPE model has a ladder to replace, got position={model.position!r}")
    frequencies, stretched = validation.real_vector(frequencies, "frequencies", "with_ladder"), copy.deepcopy(model)
    for head in (head for layer in stretched.layers for head in layer):
        head.frequencies, head.qk_scale = frequencies, qk_scale
    return stretched
