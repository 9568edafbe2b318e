"""Mistakes in longrope_angles, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "checks_only_list_in_use": ("only the list of factors in use is checked: a list of the wrong length passes while "
                                "the positions do not call for it. Hint: check both lists, whichever the positions "
                                "use: either one holding other than d/2 factors raises ValueError.",
                                {"if d % 2 or len(short_factor) != d // 2 or len(long_factor) != d // 2:":
                                 "if d % 2:",
                                 "else long_factor, dtype=float)\n":
                                 "else long_factor, dtype=float)\n    if len(factors) != d // 2:\n"
                                 '        raise ValueError("longrope_angles: the factors in use must hold d/2 '
                                 'numbers")\n'}),
    "empty_skips_checks": ("no positions give an empty table before d and the factors are checked. Hint: check d and "
                           "the lists of factors first: an odd d raises ValueError even when there are no positions.",
                           {"    if d % 2 or": "    if np.size(positions) == 0:\n        return np.zeros((0, d // 2))\n"
                                                 "    if d % 2 or"}),
    "factors_multiply": ("the factors multiply the frequencies. Hint: a factor above 1 slows its hand: divide by it.",
                         {"/ factors)": "* factors)"}),
    "first_plus_count": ("the length is the first position plus the number of positions, as if the batch ran on "
                         "without gaps. Hint: positions need be neither consecutive nor in order: a batch's length is "
                         "its largest position plus one.",
                         {"positions.max() + 1 if positions.size": "positions[0] + len(positions) if positions.size"}),
    "largest_position": ("the length is taken to be the largest position, not the largest position plus one. Hint: "
                         "positions count from 0: a batch whose largest position is p is p + 1 positions long.",
                         {"positions.max() + 1": "positions.max()"}),
    "last_position": ("the length is taken from the last position, not the largest. Hint: positions need not come in "
                      "order: a batch's length is its largest position plus one.",
                      {"positions.max() + 1": "positions[-1] + 1"}),
    "no_edges": ("the edges are not checked. Hint: an odd d or a list of other than d/2 factors raises ValueError, "
                 "and no positions give a table of shape (0, d/2).",
                 {"    if d % 2 or len(short_factor) != d // 2 or len(long_factor) != d // 2:\n"
                  '        raise ValueError(f"longrope_angles: d must be even and each list must hold d/2 factors; '
                  'got d = {d}, "\n'
                  '                         f"{len(short_factor)} and {len(long_factor)} factors")\n': "",
                  " if positions.size else 0  # no positions: an empty table, whichever list": ""}),
    "number_of_positions": ("the length is taken to be the number of positions in the batch. Hint: a batch may start "
                            "past 0, after a KV cache: its length is its largest position plus one.",
                            {"positions.max() + 1 if positions.size else 0": "len(positions)"}),
    "swapped_lists": ("the lists are swapped: the long factors serve the short inputs. Hint: short_factor up to the "
                      "original context, long_factor beyond it.",
                      {"short_factor if length <= original_context else long_factor":
                       "long_factor if length <= original_context else short_factor"}),
}
