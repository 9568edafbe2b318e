"""Mistakes in is_circulant, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "false_when_not_square": ("it says False for a matrix that is not square. Hint: a matrix that is not square raises "
                              "ValueError saying that it must be square.",
                              {'raise ValueError(f"is_circulant: a circulant matrix is square, got shape {s.shape}")':
                               "return False"}),
    "ignores_tol": ("it ignores tol: np.allclose's own tolerances decide, so a diagonal broken by a millionth passes "
                    "under the default tol, and noise below a looser tol fails. Hint: compare each difference with "
                    "tol itself.",
                    {"bool(np.all(np.abs(s - np.roll(s, (-1, -1), axis=(0, 1))) <= tol))":
                     "np.allclose(s, np.roll(s, (-1, -1), axis=(0, 1)))"}),
    "strict": ("a difference of exactly tol is not counted as within tol. Hint: compare with <=, not <.",
               {"<= tol": "< tol"}),
    "abs_of_largest": ("the absolute value is taken of the largest difference, not of each: a diagonal that falls "
                       "step by step within tol and jumps back up where it wraps passes. Hint: compare the size of "
                       "every difference with tol.",
                       {"np.all(np.abs(s - np.roll(s, (-1, -1), axis=(0, 1))) <= tol)":
                        "abs((s - np.roll(s, (-1, -1), axis=(0, 1))).max()) <= tol"}),
    "no_wrap": ("it says True for a Toeplitz matrix whose diagonals do not wrap around. Hint: constant diagonals are "
                "not enough: they must also wrap around.",
                {"s - np.roll(s, (-1, -1), axis=(0, 1))": "s[:-1, :-1] - s[1:, 1:]"}),
    "toeplitz_and_corner": ("it checks the diagonals and one wrapped pair, the corner, but not the other wrapped "
                            "diagonals: a Toeplitz matrix whose corner happens to match passes. Hint: every entry "
                            "must match the one below and to the right, wrapping around at both edges.",
                            {"bool(np.all(np.abs(s - np.roll(s, (-1, -1), axis=(0, 1))) <= tol))":
                             "bool(np.all(np.abs(s[:-1, :-1] - s[1:, 1:]) <= tol)\n"
                             "                and abs(s[-1, 0] - s[0, 1]) <= tol)"}),
    "shift_wrong_way": ("each row is compared with the row above shifted left. Hint: shift a row right by one, the "
                        "last entry wrapping to the front: it should match the row below.",
                        {"(-1, -1), axis": "(-1, 1), axis"}),
}
