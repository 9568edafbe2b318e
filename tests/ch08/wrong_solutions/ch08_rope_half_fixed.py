"""Mistakes in rope_half_fixed, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "fixed_the_other_way": ("it pairs the dimensions the interleaved way. Hint: pair j is dimensions (j, j + d/2).",
                            {"np.concatenate([theta, theta])": "np.repeat(theta, 2)",
                             "rotated = np.concatenate([-x[:, d // 2:], x[:, : d // 2]], axis=1)":
                             "rotated = np.empty_like(x, dtype=float)\n"
                             "    rotated[:, 0::2], rotated[:, 1::2] = -x[:, 1::2], x[:, 0::2]"}),
    "minus_sign_moved": ("it turns clockwise. Hint: check the signs of the sines.",
                         {"[-x[:, d // 2:], x[:, : d // 2]]": "[x[:, d // 2:], -x[:, : d // 2]]"}),
    "unfixed": ("the bug is still there: dimension j and dimension j + d/2 turn by different angles. Hint: "
                "rotate_half pairs j with j + d/2, so the table of angles must repeat the d/2 angles as two halves.",
                {"np.concatenate([theta, theta])": "np.repeat(theta, 2)"}),
}
