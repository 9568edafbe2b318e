"""it tests whether A is zero, which is enough but not needed: the state may move without ever reaching the output.
Hint: what matters is the products W_out A^l W_in, not A alone."""

import numpy as np


def order_blind(a, w_in, w_out, n):
    return bool(n == 1 or np.abs(np.asarray(a, dtype=float)).max() <= 1e-9)
