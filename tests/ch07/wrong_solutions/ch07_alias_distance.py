"""Mistakes in alias_distance, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "long_way_round": ("the angle is not measured the short way round. Hint: the distance is at most π.",
                       {"min(turned, 2 * np.pi - turned)": "turned"}),
    "no_wrap": ("the angle is not reduced modulo a full turn. Hint: angles 2π apart are the same place.",
                {"np.mod(k * theta, 2 * np.pi)": "abs(k * theta)", "min(turned, 2 * np.pi - turned)": "turned"}),
}
