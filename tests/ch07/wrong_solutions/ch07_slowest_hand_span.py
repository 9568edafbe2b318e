"""Mistakes in slowest_hand_span, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "exponent_without_two": ("the ladder's exponent lacks its factor 2. Hint: θ_j = base ** (-2j/d), and the slowest "
                             "hand is j = d/2 - 1.",
                             {"-(d - 2) / d": "-(d // 2 - 1) / d"}),
    "fastest_hand": ("it uses the fastest hand. Hint: the slowest hand is the last one of the ladder.",
                     {"base ** (-(d - 2) / d)": "1.0"}),
    "off_by_one": ("it is one short. Hint: count position 0 too.",
                   {"np.ceil": "np.floor"}),
}
