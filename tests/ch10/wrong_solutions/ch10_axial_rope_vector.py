"""Mistakes in axial_rope_vector, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "ladder_of_width_d": ("each half uses the ladder of the whole head. Hint: each half is a RoPE of width d/2: θ_j = "
                          "base ** (-2j/(d/2)).",
                          {"(-np.arange(0, half, 2) / half)": "(-np.arange(0, half, 2) / len(x))"}),
    "one_ladder_over_the_head": ("one ladder runs over the whole head: the second half gets its slow end. Hint: each "
                                 "half has its own ladder of width d/2, from θ_0 = 1 down.",
                                 {"    theta = base ** (-np.arange(0, half, 2) / half)\n": "",
                                  "cos, sin =": "theta = base ** (-np.arange(start, start + half, 2) / len(x))\n"
                                                "        cos, sin ="}),
    "half_layout": ("within each half it pairs dimension j with j + d/4, as GPT-NeoX's code lays out a head. Hint: "
                    "here the pairs are neighbours, (2j, 2j+1), counted from the start of each half.",
                    {"a, b = out[start:start + half:2].copy(), out[start + 1:start + half:2].copy()":
                     "a, b = out[start:start + half // 2].copy(), out[start + half // 2:start + half].copy()",
                     "out[start:start + half:2], out[start + 1:start + half:2] = ":
                     "out[start:start + half // 2], out[start + half // 2:start + half] = "}),
    "swapped_axes": ("the row and the column are swapped. Hint: the first half of x turns by the row, the second by "
                     "the column.",
                     {"((0, row), (half, col))": "((0, col), (half, row))"}),
}
