"""Mistakes in wavelengths, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "frequencies": ("these are the frequencies θ_j. Hint: a wavelength is the number of positions that one full turn "
                    "takes.",
                    {"2 * np.pi * base ** (np": "base ** (-np"}),
    "turns_of_one_radian": ("a full turn is taken as 1 radian. Hint: a full turn is 2π radians.",
                            {"2 * np.pi * ": ""}),
}
