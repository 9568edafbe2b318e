"""Mistakes in rotate, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "clockwise": ("it turns clockwise. Hint: a positive angle should carry (1, 0) toward (0, 1).",
                  {"np.sin(m * theta)": "-np.sin(m * theta)"}),
    "position_ignored": ("the angle ignores the position. Hint: turn by m·θ, not θ.",
                         {"np.cos(m * theta), np.sin(m * theta)": "np.cos(theta), np.sin(theta)"}),
    "sin_cos_swapped": ("sine and cosine are swapped. Hint: at angle 0 nothing should move.",
                        {"c, s = ": "s, c = "}),
}
