"""Mistakes in apply_rope_half, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "clockwise": ("it turns clockwise. Hint: check the signs of the sines.",
                  {"np.sin(angles)": "-np.sin(angles)"}),
    "interleaved_layout": ("it pairs the dimensions the interleaved way. Hint: pair j is dimensions (j, j + d/2).",
                           {"x[:, : d // 2], x[:, d // 2 :]": "x[:, 0::2], x[:, 1::2]",
                            "np.concatenate([": "np.stack([",
                            "], axis=1)": "], axis=2).reshape(x.shape)"}),
    "positions_off_by_one": ("the positions are off by one. Hint: use the positions exactly as given.",
                             {"np.outer(positions,": "np.outer(np.asarray(positions) + 1,"}),
    "relative_to_first": ("it turns each row by its distance from the first row, not by its own position. Hint: "
                          "with a KV cache the first new row does not sit at position 0: use the positions as given.",
                          {"np.outer(positions,": "np.outer(np.asarray(positions) - positions[0],"}),
    "sin_cos_swapped": ("the sine and the cosine are swapped. Hint: a pair turned by φ is (x cos φ - y sin φ, "
                        "x sin φ + y cos φ).",
                        {"c, s = np.cos": "s, c = np.cos"}),
}
