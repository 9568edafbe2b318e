"""only W_out A W_in is tested: a token can still reach a later output two or more steps on. Hint: which offsets
between a token and a later output can occur among the n tokens?"""

import numpy as np


def order_blind(a, w_in, w_out, n):
    a, w_in, w_out = (np.asarray(x, dtype=float) for x in (a, w_in, w_out))
    return bool(n == 1 or np.abs(w_out @ a @ w_in).max() <= 1e-9)
