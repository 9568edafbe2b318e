"""Mistakes in sinusoidal_table, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "half_layout": ("the pairs are laid out as halves (all the sines, then all the cosines). Hint: interleave them.",
                    {"table[:, 0::2], table[:, 1::2]": "table[:, :d // 2], table[:, d // 2:]"}),
    "positions_from_one": ("the positions are off by one. Hint: the first row is position 0.",
                           {"np.outer(np.arange(n),": "np.outer(np.arange(1, n + 1),"}),
    "sin_cos_swapped": ("sine and cosine are swapped. Hint: column 2j holds the sine.",
                        {"np.sin(angles), np.cos(angles)": "np.cos(angles), np.sin(angles)"}),
}
