"""Mistakes in add_positions, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "off_by_one_positions": ("the positions are off by one. Hint: the first token is at position 0.",
                             {"n > rows": "n >= rows", "table[:n]": "table[1:n + 1]"}),
    "wraps_around": ("a sequence longer than the table reuses the table's rows from the top. Hint: when the sequence "
                     "is longer than the table, raise ValueError with a message that says how many positions the "
                     "table has.",
                     {"    if n > rows:\n"
                      '        raise ValueError(f"add_positions: {n} tokens, but the table only has {rows} '
                      'positions")\n': "",
                      "table[:n]": "table[np.arange(n) % rows]"}),
}
