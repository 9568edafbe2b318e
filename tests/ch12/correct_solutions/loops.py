"""Plain Python loops over heads, queries and keys (the weights built one by one, the sink's exp added to each
row's total), logsumexp through math.fsum, and the matrix powers applied to W_in column by column; the arrays
are built from nested lists at the end."""

import math

import numpy as np


def sink_attention(q, k, v, sinks, causal=True):
    q, k, v = (np.asarray(x, dtype=float).tolist() for x in (q, k, v))
    d = len(q[0][0])
    out = []
    for head, sink in enumerate(np.asarray(sinks, dtype=float).tolist()):
        rows = []
        for m, query in enumerate(q[head]):
            keys = range(m + 1) if causal else range(len(k[head]))
            logits = {n: sum(a * b for a, b in zip(query, k[head][n], strict=True)) / math.sqrt(d) for n in keys}
            top = max(max(logits.values()), sink)
            e = {n: math.exp(s - top) for n, s in logits.items()}
            total = math.fsum(e.values()) + math.exp(sink - top)
            rows.append([math.fsum(e[n] / total * v[head][n][i] for n in keys) for i in range(len(v[head][0]))])
        out.append(rows)
    return np.array(out)


def sink_for_share(scores, share):
    scores = [float(s) for s in np.ravel(scores)]
    top = max(scores)
    return top + math.log(math.fsum(math.exp(s - top) for s in scores)) + math.log((1 - share) / share)


def order_blind(a, w_in, w_out, n):
    a, w_in, w_out = (np.asarray(x, dtype=float).tolist() for x in (a, w_in, w_out))
    columns = [list(col) for col in zip(*w_in, strict=True)]
    for _ in range(1, n):
        columns = [[sum(r * c for r, c in zip(row, col, strict=True)) for row in a] for col in columns]
        for col in columns:
            if any(abs(sum(r * c for r, c in zip(row, col, strict=True))) > 1e-9 for row in w_out):
                return False
    return True
