"""Mistakes in wavelengths, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "exponent_without_two": ("the exponent lacks its factor 2: hand j's frequency is base^(-2j/d), not base^(-j/d). "
                             "Hint: check θ_j before the full turn.",
                             {"np.arange(0, d, 2)": "np.arange(d // 2)"}),
    "frequencies": ("these are the frequencies θ_j. Hint: a wavelength is the number of positions that one full turn "
                    "takes.",
                    {"2 * np.pi * base ** (np": "base ** (-np"}),
    "turns_of_one_radian": ("a full turn is taken as 1 radian. Hint: a full turn is 2π radians.",
                            {"2 * np.pi * ": ""}),
}
