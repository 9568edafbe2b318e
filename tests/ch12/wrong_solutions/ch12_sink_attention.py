"""Mistakes in sink_attention, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "mask_ignored": ("the causal mask is left out: each query also sees the keys after it. Hint: with causal=True, set "
                     "the scores of the keys n > m to -inf before the softmax (the sink is never masked).",
                     {"    if causal:\n        n = scores.shape[-1]\n"
                      "        scores = np.where(np.tril(np.ones((n, n), dtype=bool)), scores, -np.inf)\n": ""}),
    "sink_has_a_value": ("the sink's weight goes to the first token's value instead of being dropped. Hint: the sink "
                         "is a column of the softmax with no value: its weight adds nothing to the output.",
                         {"weights @ v": "weights @ v + (1 - weights.sum(axis=-1, keepdims=True)) * v[:, :1]"}),
    "sink_in_every_score": ("the sink logit is added to every score rather than set beside them as one more column. "
                            "Hint: adding the same number to a whole row changes no softmax weight; the sink needs a "
                            "column of its own.",
                            {"  # (H, N, N)": " + sinks[:, None, None]  # (H, N, N)",
                             "np.maximum(scores.max(axis=-1, keepdims=True), sinks[:, None, None])":
                             "scores.max(axis=-1, keepdims=True)",
                             " + np.exp(sinks[:, None, None] - top))": ")"}),
    "sink_scaled": ("the sink logit is divided by sqrt(d) like the scores. Hint: the sink is a logit already, one "
                    "number per head that joins each row of scores as it is; only q_m . k_n is divided by sqrt(d).",
                    {"  # (H, N, N)\n": "  # (H, N, N)\n    sinks = sinks / np.sqrt(q.shape[-1])\n"}),
}
