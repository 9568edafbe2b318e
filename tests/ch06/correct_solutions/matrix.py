"""With the book's own rotation: k = Theta_3 q, from posenc.rotary.rope_matrix."""

import numpy as np

from posenc.rotary import rope_matrix


def design_lookback(d, base):
    q = np.tile([9.0, 9.0], d // 2)
    return q, rope_matrix(3, d, base) @ q
