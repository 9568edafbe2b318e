"""Mistakes in relative_scores, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "off_by_one_index": ("the offsets are shifted by one. Hint: the offset 0 sits at bias[n_positions - 1].",
                         {"return bias[n - m + n_positions - 1]":
                          "return bias[(n - m + n_positions) % (2 * n_positions - 1)]"}),
    "reversed_offsets": ("the offsets run the wrong way. Hint: entry [m, n] belongs to the offset n - m (key minus "
                         "query).",
                         {"return bias[n - m": "return bias[m - n"}),
}
