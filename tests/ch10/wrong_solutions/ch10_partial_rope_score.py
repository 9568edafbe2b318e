"""Mistakes in partial_rope_score, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "half_layout": ("it pairs dimension j with j + r/2, as GPT-NeoX's code lays out its halves. Hint: here the pairs "
                    "are neighbours, (2j, 2j+1), within the first r dimensions.",
                    {"a, b = x[0:r:2].copy(), x[1:r:2].copy()": "a, b = x[:r // 2].copy(), x[r // 2:r].copy()",
                     "x[0:r:2], x[1:r:2] = ": "x[:r // 2], x[r // 2:r] = "}),
    "last_dims_rotated": ("it rotates the last r dimensions. Hint: the first r dimensions turn.",
                          {"a, b = x[0:r:2].copy(), x[1:r:2].copy()":
                           "a, b = x[len(x) - r::2].copy(), x[len(x) - r + 1::2].copy()",
                           "x[0:r:2], x[1:r:2] = ": "x[len(x) - r::2], x[len(x) - r + 1::2] = "}),
    "odd_width_rounded_down": ("an odd rotated width is rounded down instead of refused. Hint: when r = int(d * "
                               "rotary_fraction) is odd, raise ValueError.",
                               {"r = int(len(q) * rotary_fraction)": "r = int(len(q) * rotary_fraction) // 2 * 2"}),
    "pass_through_dropped": ("the dimensions that pass through are left out of the score. Hint: they still add their "
                             "plain dot product.",
                             {"float(q_m @ k_n)": "float(q_m[:r] @ k_n[:r])"}),
    "rounded": ("r is rounded to the nearest whole number. Hint: r = int(d * rotary_fraction), rounded down, as "
                "GPT-NeoX's code takes it.",
                {"r = int(len(q) * rotary_fraction)": "r = round(len(q) * rotary_fraction)"}),
    "scaled": ("it divides by sqrt(d). Hint: the score asked for is the plain dot product, without 1/√d.",
               {"float(q_m @ k_n)": "float(q_m @ k_n / np.sqrt(len(q)))"}),
    "whole_head_ladder": ("the rotated dimensions use the whole head's ladder. Hint: the ladder is built over the r "
                          "rotated dimensions: θ_j = base ** (-2j/r).",
                          {"(-np.arange(0, r, 2) / r)": "(-np.arange(0, r, 2) / len(q))"}),
    "zero_width_unrotated": ("a rotated width of 0 gives the plain dot product instead of an error. Hint: when r = "
                             "int(d * rotary_fraction) is 0, raise ValueError.",
                             {"if r < 2 or r % 2:": "if r % 2:"}),
}
