"""Mistakes in shift_matrix, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "absolute_offset": ("it shifts by |k|: a negative offset moves forward too. Hint: the angle of block j is k·θ_j, "
                        "negative when k is.",
                        {"np.cos(k * theta), np.sin(k * theta)": "np.cos(abs(k) * theta), np.sin(abs(k) * theta)"}),
    "half_layout": ("its blocks act on dimensions (j, j + d/2). Hint: the pairs of the table are (2j, 2j+1).",
                    {"np.arange(0, d, 2), np.arange(1, d, 2)": "np.arange(d // 2), np.arange(d // 2, d)"}),
    "off_by_one_shift": ("it shifts by k + 1 positions. Hint: the angle of block j is k·θ_j.",
                         {"np.cos(k * theta), np.sin(k * theta)": "np.cos((k + 1) * theta), np.sin((k + 1) * theta)"}),
    "shifts_backwards": ("this matrix moves positions backwards (PE(p) to PE(p - k)). Hint: check the signs of the "
                         "sines, or whether you built the transpose: M_k acts on the column PE(p), as in M_k @ PE(p).",
                         {"= c, s, -s, c": "= c, -s, s, c"}),
}
