"""Mistakes in latent_score, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "content_turned": ("the content part is turned as well. Hint: only the rotary part carries RoPE: the absorbed "
                       "query W_UK^T q_nope meets the latent as it is.",
                       {"v[1::2]\n": "v[1::2]\n        theta = base ** (-np.arange(0, len(v), 2) / len(v))\n",
                        "absorbed @ latent": "turn(q_nope, m) @ turn(w_uk @ latent, n)"}),
    "half_layout": ("the rotary part pairs the coordinates (j, j + d_rope/2). Hint: the pairs are neighbours, (2j, "
                    "2j+1), as in DeepSeek's checkpoints.",
                    {"a, b = v[0::2], v[1::2]": "a, b = v[:d_rope // 2], v[d_rope // 2:]"}),
    "refuses_no_rope": ("a head without a rotary part (d_rope = 0) is refused. Hint: d_rope = 0 is allowed: the score "
                        "is then the content part alone.",
                        {"if d_rope % 2:": "if d_rope % 2 or d_rope == 0:"}),
    "no_odd_check": ("an odd d_rope is not refused: with one or three coordinates numpy pairs what it can and "
                     "returns a number. Hint: check d_rope first, and raise ValueError when it is odd.",
                     {"    if d_rope % 2:\n"
                      '        raise ValueError(f"latent_score: the rotary part must have an even width, got d_rope = '
                      '{d_rope}")\n': ""}),
    "positions_swapped": ("the offset has the wrong sign: the positions are swapped (the query turned by n, the key "
                          "by m), or both parts are turned clockwise. Hint: the query sits at m and the key at n, "
                          "and each pair (a, b) turns counter-clockwise, to (a cos - b sin, a sin + b cos).",
                          {"turn(q_rope, m) @ turn(k_rope, n)": "turn(q_rope, n) @ turn(k_rope, m)"}),
    "scaled": ("it divides by sqrt(d). Hint: return the unscaled score.",
               {"turn(k_rope, n))": "turn(k_rope, n)) / (len(q_nope) + d_rope) ** 0.5"}),
}
