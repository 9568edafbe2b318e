"""Mistakes in added_norms, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "positions_from_one": ("the positions are off by one. Hint: the first is position 0.",
                           {"sinusoidal_table(n_positions, q.shape[0])":
                            "sinusoidal_table(n_positions + 1, q.shape[0])[1:]"}),
    "squared_lengths": ("these are squared lengths. Hint: take the square root.",
                        {"np.linalg.norm(q + sinusoidal_table(n_positions, q.shape[0]),":
                         "np.sum((q + sinusoidal_table(n_positions, q.shape[0])) ** 2,"}),
    "sum_of_lengths": ("that adds the two lengths. Hint: the length of a sum depends on the angle between the "
                       "vectors: add first, then measure.",
                       {"np.linalg.norm(q + ": "np.linalg.norm(q) + np.linalg.norm("}),
}
