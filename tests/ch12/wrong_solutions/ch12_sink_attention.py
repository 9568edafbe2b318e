"""Mistakes in sink_attention, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "mask_ignored": ("the causal mask is left out: each query also sees the keys after it. Hint: with causal=True, set "
                     "the scores of the keys n > m to -inf before the softmax (the sink is never masked).",
                     {"    if causal:\n        n = scores.shape[-1]\n"
                      "        scores = np.where(np.tril(np.ones((n, n), dtype=bool)), scores, -np.inf)\n": ""}),
    "scores_unscaled": ("the scores are not divided by sqrt(d). Hint: each score q_m . k_n is divided by the square "
                        "root of the head's width, as in plain attention; the sink logit is not.",
                        {" / np.sqrt(q.shape[-1])  # (H, N, N)": "  # (H, N, N)"}),
    "sink_has_a_value": ("the sink's weight goes to the first token's value instead of being dropped. Hint: the sink "
                         "is a column of the softmax with no value: its weight adds nothing to the output.",
                         {"weights @ v": "weights @ v + (1 - weights.sum(axis=-1, keepdims=True)) * v[:, :1]"}),
    "sink_in_every_score": ("the weights are a plain softmax, as if there were no sink: the sink was left out, added "
                            "to every score (which changes no weight), or its column dropped and the rest "
                            "renormalised. Hint: the sink is one more column of the softmax; its weight is then "
                            "dropped, never given back to the keys.",
                            {"  # (H, N, N)": " + sinks[:, None, None]  # (H, N, N)",
                             "np.maximum(scores.max(axis=-1, keepdims=True), sinks[:, None, None])":
                             "scores.max(axis=-1, keepdims=True)",
                             " + np.exp(sinks[:, None, None] - top))": ")"}),
    "sink_scaled": ("the sink logit is divided by sqrt(d) like the scores. Hint: the sink is a logit already, one "
                    "number per head that joins each row of scores as it is; only q_m . k_n is divided by sqrt(d).",
                    {"  # (H, N, N)\n": "  # (H, N, N)\n    sinks = sinks / np.sqrt(q.shape[-1])\n"}),
}
