"""Mistakes in design_lookback, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "aligned": ("The key equal to the query: the scores peak at offset 0, the query's own position.",
                {"k[0::2], k[1::2] = 12.0 * np.cos(3 * theta), 12.0 * np.sin(3 * theta)": "k[:] = q"}),
    "fastest_hand_only": ("Only the fastest pair is used: it turns almost a full circle in six positions, so offset -9 "
                          "scores nearly as high as -3 and the weight is shared.",
                          {"q[0::2] = 12.0": "q[0] = 12.0"}),
    "offset_plus_three": ("The key is turned backward by three positions: the scores peak at offset +3, a token the "
                          "query never sees.",
                          {"12.0 * np.sin": "-12.0 * np.sin"}),
    "too_short": ("The right direction, but unit-length pairs: the peak at offset -3 is too shallow to hold 90% of the "
                  "weight.",
                  {"q[0::2] = 12.0": "q[0::2] = 1.0", "12.0 * np.cos": "np.cos", "12.0 * np.sin": "np.sin"}),
    "too_short_for_neighbours": ("The right direction on every pair, but pairs of length 3: the peak at offset -3 is "
                                 "right and too flat at the top, so its neighbours -2 and -4 take much of the weight.",
                                 {"q[0::2] = 12.0": "q[0::2] = 3.0", "12.0 * np.cos": "3.0 * np.cos",
                                  "12.0 * np.sin": "3.0 * np.sin"}),
}
