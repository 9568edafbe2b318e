"""Mistakes in order_blind, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "a_is_zero": ("it tests whether A is zero, which is enough but not needed: the state may move without ever "
                  "reaching the output. Hint: what matters is the products W_out A^l W_in, not A alone.",
                  {"np.abs(w_out @ reach).max()": "np.abs(a).max()"}),
    "exact_zero": ("a product counts as zero only when it is exactly zero: round-off of 1e-16 makes a layer that is "
                   "blind to order look aware of it. Hint: treat a matrix as zero when none of its entries exceeds "
                   "1e-9 in absolute value.",
                   {"np.abs(w_out @ reach).max() <= 1e-9": "not np.any(w_out @ reach)"}),
    "float32": ("it computes in float32, whose round-off (about 1e-7 of an entry) is above the 1e-9 the question "
                "allows: a product that is zero comes out as 1e-8. Hint: compute in float64.",
                {"dtype=float)": "dtype=np.float32)"}),
    "abs_of_largest": ("the absolute value is taken of the largest entry, not of each: a product of a negative entry "
                       "and zeros counts as zero. Hint: none of a matrix's entries may exceed 1e-9 in absolute value: "
                       "the largest |entry|.",
                       {"np.abs(w_out @ reach).max()": "abs((w_out @ reach).max())"}),
    "no_absolute_value": ("an entry is compared with 1e-9 by its sign, not its size: a product of negative entries "
                          "counts as zero. Hint: none of a matrix's entries may exceed 1e-9 in absolute value.",
                          {"np.abs(w_out @ reach).max() <= 1e-9": "(w_out @ reach).max() <= 1e-9"}),
    "strict": ("an entry of exactly 1e-9 does not count as zero: the question treats a matrix as zero when none of "
               "its entries exceeds 1e-9. Hint: compare with <=, not <.",
               {"<= 1e-9": "< 1e-9"}),
    "capped_at_size": ("only the offsets up to the size of A are tested: in exact arithmetic the later products follow "
                       "from those (Cayley-Hamilton), but each may still exceed 1e-9 when A is large. Hint: every "
                       "offset l = 1, ..., n - 1 between a token and a later output counts.",
                       {"range(1, n)": "range(1, min(n, len(a) + 1))"}),
    "w_in_left_out": ("W_out A^l is tested without W_in: a state the input never reaches counts against the layer. "
                      "Hint: token n reaches output m through W_out A^(m-n) W_in, all three.",
                      {"reach, blind = w_in, True": "reach, blind = np.eye(len(a)), True"}),
    "first_kernel_only": ("only W_out A W_in is tested: a token can still reach a later output two or more steps on. "
                          "Hint: which offsets between a token and a later output can occur among the n tokens?",
                          {"range(1, n)": "range(1, min(n, 2))"}),
    "offset_zero_too": ("W_out A^0 W_in = W_out W_in is required to vanish too, though a token reaching its own output "
                        "is no sign of order. Hint: permuting the tokens permutes the outputs whatever x_m gives y_m; "
                        "only the offsets l = 1, ..., n - 1 between a token and a later output matter.",
                        {"reach, blind = w_in, True": "reach, blind = w_in, np.abs(w_out @ w_in).max() <= 1e-9"}),
}
