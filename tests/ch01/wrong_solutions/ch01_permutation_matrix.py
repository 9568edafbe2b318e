"""Mistakes in permutation_matrix, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "one_based_positions": ("the 1s sit one column to the left. Hint: positions in `order` start at 0.",
                            {"p[np.arange(size), order]": "p[np.arange(size), np.asarray(order) - 1]"}),
    "transposed": ("this matrix undoes the permutation (it is the transpose of the one asked for). Hint: row m should "
                   "pick row order[m] of x, so the 1 of row m sits in column order[m].",
                   {"p[np.arange(size), order]": "p[order, np.arange(size)]"}),
}
