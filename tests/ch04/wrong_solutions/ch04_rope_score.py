"""Mistakes in rope_score, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "key_turned_backwards": ("the key is turned backwards (by -n·θ). Hint: both vectors turn counter-clockwise.",
                             {"(turn(n * theta) @ k)": "(turn(n * theta).T @ k)"}),
    "missing_sqrt_d": ("the dot product is not scaled. Hint: divide by √d, and d = 2 here.",
                       {" / np.sqrt(2))": ")"}),
    "same_rotation_for_both": ("the positions have no effect. Hint: turn q by m·θ and k by n·θ.",
                               {"(turn(n * theta) @ k)": "(turn(m * theta) @ k)"}),
}
