"""Mistakes in closest_alias, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "no_wrap": ("it returned 1. Hint: neighbours are not always closest on a fast hand; measure the angle modulo a "
                "full turn.",
                {"np.mod(k * theta, 2 * np.pi)": "np.abs(k * theta)",
                 "np.minimum(turned, 2 * np.pi - turned)": "turned"}),
    "range_off_by_one": ("it also tries the offset n. Hint: the offsets to try run from 1 to n - 1.",
                         {"np.arange(1, n_positions)": "np.arange(1, n_positions + 1)"}),
}
