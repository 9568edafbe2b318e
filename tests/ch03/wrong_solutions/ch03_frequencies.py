"""Mistakes in frequencies, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "base_misapplied": ("the base divides instead of being raised to a power. Hint: theta_j = base ** (-2j/d).",
                        {"base ** (-np.arange(0, d, 2) / d)": "1.0 / (1.0 + np.arange(0, d, 2) * base / d)"}),
    "exponent_without_two": ("the exponent lacks its factor 2. Hint: the last hand should turn almost 1/base.",
                             {"np.arange(0, d, 2)": "np.arange(d // 2)"}),
    "positive_exponent": ("the exponent has the wrong sign. Hint: the hands should slow down, from 1 radian per "
                          "position toward 1/base.",
                          {"(-np.arange": "(np.arange"}),
}
