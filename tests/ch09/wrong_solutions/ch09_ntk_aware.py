"""Mistakes in ntk_aware, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "base_times_scale": ("the base is multiplied by the factor itself. Hint: the new base is the one of exercise 2 for "
                         "the slowest hand, hand d/2 - 1.",
                         {"factor ** (d / (d - 2))": "factor"}),
    "position_interpolation": ("every hand is slowed by the factor: that is position interpolation. Hint: with the "
                               "larger base the fastest hand keeps θ_0 = 1.",
                               {"    new_base = base * factor ** (d / (d - 2))\n"
                               "    return new_base ** (-np.arange(0, d, 2) / d)":
                               "    return base ** (-np.arange(0, d, 2) / d) / factor"}),
    "tilt_reversed": ("the fastest hand is slowed and the slowest kept: the tilt is reversed. Hint: hand 0 keeps its "
                      "frequency; the last hand is slowed by exactly the factor.",
                      {"    new_base = base * factor ** (d / (d - 2))\n"
                       "    return new_base ** (-np.arange(0, d, 2) / d)":
                       "    return base ** (-np.arange(0, d, 2) / d) * factor ** (np.arange(0, d, 2) / (d - 2) - 1)"}),
    "width_two_divides": ("d = 2 is not refused. Hint: a head of width 2 has only hand 0, which no base slows: raise "
                          "ValueError.",
                          {"    if d <= 2:\n        raise ValueError(f\"ntk_aware: a head of width {d} has no hand "
                           'that a larger base slows")\n': ""}),
}
