"""Mistakes in offset_counts, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "both_directions": ("pairs are counted twice. Hint: a causal query only looks back.",
                        {"return n_tokens - np.arange(n_tokens)": "return 2 * (n_tokens - np.arange(n_tokens))"}),
    "off_by_one": ("each count is one too small. Hint: the offset 0 (each token with itself) occurs once for every "
                   "token.",
                   {"np.arange(n_tokens)": "np.arange(n_tokens) - 1"}),
}
