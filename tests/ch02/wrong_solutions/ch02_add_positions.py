"""Mistakes in add_positions, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "no_length_check": ("the lengths are not compared: numpy's broadcast error stands in for the check, and a table of "
                        "one row is added to every token without any error. Hint: compare the lengths yourself, "
                        "before adding, and raise ValueError with a message that says how many positions the table "
                        "has.",
                        {"    if n > rows:\n"
                         '        raise ValueError(f"add_positions: {n} tokens, but the table only has {rows} '
                         'positions")\n': ""}),
    "off_by_one_check": ("a sequence exactly as long as the table raises ValueError. Hint: a sequence exactly as long "
                         "as the table fits; raise only when it is longer.",
                         {"n > rows": "n >= rows"}),
    "late_length_check": ("a sequence one token longer than the table gets no error of its own: numpy's broadcast "
                          "error stands in, and a table of one row is added to two tokens. Hint: raise as soon as "
                          "the sequence is longer than the table, by one token or more.",
                          {"n > rows": "n > rows + 1"}),
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
