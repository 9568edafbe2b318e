"""float32 torch: the sink concatenated as one more column of the logits, softmax over it and the column
dropped, as transformers' GPT-OSS eager attention does; the share through torch.logsumexp; the matrix powers by
torch.linalg.matrix_power. Tensors are returned (0-d for a number, a 0-d bool tensor for order_blind)."""

import torch


def sink_attention(q, k, v, sinks, causal=True):
    q, k, v, sinks = (torch.as_tensor(x, dtype=torch.float32) for x in (q, k, v, sinks))
    logits = q @ k.transpose(-1, -2) * q.shape[-1] ** -0.5
    if causal:
        n = logits.shape[-1]
        logits = logits.masked_fill(~torch.ones(n, n, dtype=torch.bool).tril(), float("-inf"))
    sink_column = sinks.reshape(-1, 1, 1).expand(-1, logits.shape[1], 1)
    combined = torch.cat([logits, sink_column], dim=-1)
    probs = torch.softmax(combined - combined.max(dim=-1, keepdim=True).values, dim=-1)
    return probs[..., :-1] @ v


def sink_for_share(scores, share):
    scores = torch.as_tensor(scores, dtype=torch.float64)
    return torch.logsumexp(scores, dim=-1) + torch.log(torch.tensor(1.0 / share - 1.0, dtype=torch.float64))


def order_blind(a, w_in, w_out, n):
    a, w_in, w_out = (torch.as_tensor(x, dtype=torch.float64) for x in (a, w_in, w_out))
    kernels = [w_out @ torch.linalg.matrix_power(a, power) @ w_in for power in range(1, n)]
    return torch.tensor(all(bool((kernel.abs() <= 1e-9).all()) for kernel in kernels))
