"""Mistakes in rope_score, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "key_turned_backwards": ("the key is turned backwards (by -n·θ). Hint: both vectors turn counter-clockwise.",
                             {"(turn(n * theta) @ k)": "(turn(n * theta).T @ k)"}),
    "missing_sqrt_d": ("the dot product is not scaled. Hint: divide by √d, and d = 2 here.",
                       {" / np.sqrt(2))": ")"}),
    "positions_swapped": ("the offset has the wrong sign: the score is qᵀR((m-n)θ)k, as when q is turned by n and k "
                          "by m, or when vectors are rows multiplied on the left of R. Hint: turn the column q by "
                          "m·θ and the column k by n·θ: the score is qᵀR((n-m)θ)k.",
                          {"(turn(m * theta) @ q) @ (turn(n * theta) @ k)":
                           "(turn(n * theta) @ q) @ (turn(m * theta) @ k)"}),
    "same_rotation_for_both": ("the positions have no effect. Hint: turn q by m·θ and k by n·θ.",
                               {"(turn(n * theta) @ k)": "(turn(m * theta) @ k)"}),
}
