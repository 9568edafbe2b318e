"""Mistakes in hand_periods, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "exponent_without_two": ("the ladder's exponent lacks its factor 2. Hint: θ_j = base ** (-2j/d).",
                             {"np.arange(0, d, 2)": "np.arange(d // 2)"}),
    "frequencies_not_periods": ("these are the frequencies θ_j. Hint: a period is the number of positions one full "
                                "turn takes.",
                                {"2 * np.pi / base": "base"}),
    "missing_two_pi": ("a full turn is taken as 1 radian. Hint: a full turn is 2π radians.",
                       {"2 * np.pi /": "1.0 /"}),
}
