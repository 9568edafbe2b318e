"""Mistakes in clock_shift, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "clockwise": ("the hands turn clockwise. Hint: each 2x2 block should turn (1, 0) toward (0, 1).",
                  {"c, -s, s, c": "c, s, -s, c"}),
    "exponent_without_two": ("the ladder's exponent lacks its factor 2. Hint: θ_j = base ** (-2j/d).",
                             {"(-np.arange(0, d, 2)": "(-np.arange(d // 2)"}),
    "half_layout": ("its pairs are the dimensions (j, j + d/2). Hint: the clock's pairs are (2j, 2j+1).",
                    {"np.arange(0, d, 2), np.arange(1, d, 2)": "np.arange(d // 2), np.arange(d // 2, d)"}),
}
