"""Mistakes in rotation, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "clockwise": ("it turns clockwise. Hint: a small positive angle should carry (1, 0) toward (0, 1).",
                  {"[[c, -s], [s, c]]": "[[c, s], [-s, c]]"}),
    "degrees": ("it reads the angle in degrees. Hint: angles here are in radians.",
                {"np.cos(angle), np.sin(angle)": "np.cos(np.deg2rad(angle)), np.sin(np.deg2rad(angle))"}),
    "sin_cos_swapped": ("sine and cosine are swapped. Hint: rotation(0) should leave every vector where it is.",
                        {"[[c, -s], [s, c]]": "[[s, -c], [c, s]]"}),
}
