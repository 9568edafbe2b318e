"""The claims checked in chapter 1, *Attention sees a set*

Attention(PX) = P Attention(X), for one head, for torch's multi-head attention and for a stack of encoder blocks;
and the same check failing once a causal mask ties the head to the positions.
"""

from __future__ import annotations

import numpy as np

from posenc import attention as att

from .result import ClaimResult, claim_result


def permutation_equivariance(n: int = 5, d: int = 8, seed: int = 0, causal: bool = False) -> ClaimResult:
    """Attention(PX) = P Attention(X) for self-attention with random weights and a random permutation other
    than the identity (for ``n >= 2``). With ``causal=True`` the head has a causal mask and the check fails:
    query ``m`` of the permuted input sees other tokens than query ``m`` of the original."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d))
    w_q, w_k, w_v = (rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(3))
    order = rng.permutation(n)
    while n > 1 and np.array_equal(order, np.arange(n)):
        order = rng.permutation(n)
    p = att.permutation_matrix(order)
    mask = att.causal_mask(n) if causal else None

    def head(tokens):
        return att.attention(tokens @ w_q, tokens @ w_k, tokens @ w_v, mask=mask)

    kind = "causal head: " if causal else ""
    return claim_result(f"{kind}Attention(PX) = P Attention(X)", head(p @ x) - p @ head(x))


def permutation_equivariance_torch(n: int = 5, d: int = 8, heads: int = 2, seed: int = 0) -> ClaimResult:
    """The same claim for ``torch.nn.MultiheadAttention`` (no mask, float64, random initial weights)."""
    import torch

    torch.manual_seed(seed)
    mha = torch.nn.MultiheadAttention(d, heads, batch_first=True, dtype=torch.float64).eval()
    x = torch.randn(1, n, d, dtype=torch.float64)
    order = torch.randperm(n)
    with torch.no_grad():
        out = mha(x, x, x, need_weights=False)[0]
        out_permuted = mha(x[:, order], x[:, order], x[:, order], need_weights=False)[0]
    return claim_result("MultiheadAttention(PX) = P MultiheadAttention(X)", (out_permuted - out[:, order]).numpy())


def permutation_equivariance_encoder(n: int = 5, d: int = 8, heads: int = 2, layers: int = 3,
                                     seed: int = 0) -> ClaimResult:
    """The same claim for a stack of ``torch.nn.TransformerEncoderLayer`` blocks (attention, feed-forward
    network, residual connections, layer normalisation; no mask, no dropout, float64)."""
    import torch

    torch.manual_seed(seed)
    block = torch.nn.TransformerEncoderLayer(d, heads, dim_feedforward=4 * d, dropout=0.0, batch_first=True,
                                             dtype=torch.float64)
    stack = torch.nn.TransformerEncoder(block, layers, enable_nested_tensor=False).eval()
    x = torch.randn(1, n, d, dtype=torch.float64)
    order = torch.randperm(n)
    with torch.no_grad():
        deviation = stack(x[:, order]) - stack(x)[:, order]
    return claim_result(f"{layers} encoder blocks: Encoder(PX) = P Encoder(X)", deviation.numpy())
