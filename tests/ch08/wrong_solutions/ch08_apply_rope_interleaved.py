"""Mistakes in apply_rope_interleaved, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "clockwise": ("it turns clockwise. Hint: check the signs of the sines.",
                  {"np.sin(angles)": "-np.sin(angles)"}),
    "half_layout": ("it pairs the dimensions the half way. Hint: pair j is dimensions (2j, 2j+1).",
                    {"out[:, 0::2] = x[:, 0::2] * c - x[:, 1::2] * s":
                     "out[:, : d // 2] = x[:, : d // 2] * c - x[:, d // 2 :] * s",
                     "out[:, 1::2] = x[:, 0::2] * s + x[:, 1::2] * c":
                     "out[:, d // 2 :] = x[:, : d // 2] * s + x[:, d // 2 :] * c"}),
    "positions_truncated": ("the positions are made whole numbers: a position of 5.5 turns as 5. Hint: positions may "
                            "be floats (interpolated positions are); keep them as they are.",
                            {"np.outer(positions,": "np.outer(np.asarray(positions, dtype=int),"}),
    "positions_ignored": ("it ignores `positions` and numbers the rows 0, 1, 2, ... Hint: with a KV cache the new "
                          "rows do not start at position 0.",
                          {"np.outer(positions,": "np.outer(np.arange(x.shape[0]),"}),
}
