"""Mistakes in alias_distance, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "long_way_round": ("the angle is not measured the short way round. Hint: the distance is at most π.",
                       {"min(turned, 2 * np.pi - turned)": "turned"}),
    "fmod": ("for a negative k the angle comes out negative: fmod keeps the sign of k·θ. Hint: reduce into [0, 2π) "
             "(np.mod, or % in Python), then take the shorter way round.",
             {"np.mod(k * theta, 2 * np.pi)": "np.fmod(k * theta, 2 * np.pi)"}),
    "no_wrap": ("the angle is not reduced modulo a full turn. Hint: angles 2π apart are the same place.",
                {"np.mod(k * theta, 2 * np.pi)": "abs(k * theta)", "min(turned, 2 * np.pi - turned)": "turned"}),
}
