"""Mistakes in alibi_slopes, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "first_slopes_of_twice_as_many": ("the extra heads take the first slopes of 2H' heads, repeating some of the "
                                      "others. Hint: the extra heads take every other slope of 2H' heads (τ = 1, 3, "
                                      "5, ...), the ones that the first H' heads do not have.",
                                      {"2 * (n_heads - closest), 2)": "n_heads - closest + 1)"}),
    "geometric_for_every_count": ("the plain geometric sequence is used for a head count that is not a power of two. "
                                  "Hint: take the slopes of the largest power of two H' below H, then add slopes from "
                                  "2H' heads.",
                                  {"closest = 2 ** int(np.log2(n_heads))": "closest = n_heads"}),
    "tau_from_zero": ("the first head's slope is 1: τ starts at 0. Hint: head τ = 1, ..., H gets 2 ** (-8τ/H), so "
                      "every slope is below 1.",
                      {"np.arange(1, closest + 1)": "np.arange(closest)",
                       "np.arange(1, 2 * (n_heads - closest), 2)": "np.arange(0, 2 * (n_heads - closest), 2)"}),
}
