"""Mistakes in base_for_hand, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "exponent_upside_down": ("the exponent is upside down. Hint: write the frequency of hand j with the new base, set "
                             "it equal to the old one divided by the factor, and solve for the new base.",
                             {"(d / (2 * hand))": "(2 * hand / d)"}),
    "hand_zero_divides": ("hand 0, or a hand the head does not have, is not refused. Hint: hand 0 turns by 1 radian "
                          "per position whatever the base, and a head of width d has hands 0 to d/2 - 1 only: raise "
                          "ValueError for the others.",
                          {"    if not 0 < hand < d // 2:\n"
                           '        raise ValueError(f"base_for_hand: no base slows hand {hand} of a head of width '
                           '{d}; "\n'
                           '                         f"hands 1 to {d // 2 - 1} can be slowed")\n': ""}),
    "linear_in_factor": ("multiplying the base by the factor slows the hand by less than the factor. Hint: the base "
                         "enters hand j's frequency through the power -2j/d.",
                         {"factor ** (d / (2 * hand))": "factor"}),
    "rounded": ("the new base is rounded to a whole number. Hint: the base is a real number; return it as it comes.",
                {"return float(base * factor ** (d / (2 * hand)))":
                 "return float(round(base * factor ** (d / (2 * hand))))"}),
    "slowest_hand_always": ("that is the NTK-aware base, which slows the slowest hand by the factor, not the hand "
                            "asked for. Hint: write the frequency of hand j with the new base, set it equal to the old "
                            "one divided by the factor, and solve for the new base.",
                            {"(d / (2 * hand))": "(d / (d - 2))"}),
}
