"""Mistakes in is_toeplitz, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "demands_wrap_around": ("it says False for a Toeplitz matrix whose diagonals do not wrap around. Hint: constant "
                            "diagonals are enough; do not ask for wrapping.",
                            {"s[:-1, :-1] - s[1:, 1:]": "s - np.roll(s, (-1, -1), axis=(0, 1))"}),
    "exact_equality": ("it says False for a Toeplitz matrix whose entries agree only up to round-off (1e-13). Hint: "
                       "compare differences with `tol`, not with ==.",
                       {"np.abs(s[:-1, :-1] - s[1:, 1:]) <= tol": "s[:-1, :-1] == s[1:, 1:]"}),
    "ignores_tol": ("it ignores tol: np.allclose's own tolerances decide, so a diagonal broken by a millionth passes "
                    "under the default tol, and noise below a looser tol fails. Hint: compare each difference with "
                    "tol itself.",
                    {"bool(np.all(np.abs(s[:-1, :-1] - s[1:, 1:]) <= tol))": "np.allclose(s[:-1, :-1], s[1:, 1:])"}),
    "strict": ("a difference of exactly tol is not counted as within tol. Hint: compare with <=, not <.",
               {"<= tol": "< tol"}),
    "first_row_only": ("it says True for a matrix whose last entry breaks the diagonal. Hint: check every entry, down "
                       "to the last row.",
                       {"s[:-1, :-1] - s[1:, 1:]": "s[0, :-1] - s[1, 1:]"}),
    "one_sided": ("it says True for a matrix whose last entry is lowered below its diagonal. Hint: compare the size "
                  "of each difference with tol, whichever entry is the larger.",
                  {"np.abs(s[:-1, :-1] - s[1:, 1:]) <= tol": "s[1:, 1:] - s[:-1, :-1] <= tol"}),
    "square_diagonals": ("it says True for a matrix with more columns than rows whose last entry breaks its diagonal. "
                         "Hint: a matrix with more columns than rows has more diagonals above the main one than below "
                         "it: check them all.",
                         {"np.abs(s[:-1, :-1] - s[1:, 1:])": "np.tril(np.abs(s[:-1, :-1] - s[1:, 1:]), len(s) - 1)"}),
}
