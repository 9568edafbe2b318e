"""Mistakes in interpolated_positions, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "integer_division": ("integer division drops the fractions. Hint: the scaled positions are fractions: divide "
                         "with /, not //.",
                         {", dtype=float) * trained_length / target_length": ") * trained_length // target_length"}),
    "ratio_upside_down": ("the ratio is upside down. Hint: the positions should shrink into the trained range.",
                          {") * trained_length / target_length": ") * target_length / trained_length"}),
}
