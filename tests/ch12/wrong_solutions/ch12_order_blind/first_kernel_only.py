"""only W_out A W_in is tested: a token can still reach a later output two or more steps on. Hint: token j reaches
output m through W_out A^(m-j) W_in; test every power from 1 to n - 1."""

import numpy as np


def order_blind(a, w_in, w_out, n):
    a, w_in, w_out = (np.asarray(x, dtype=float) for x in (a, w_in, w_out))
    return bool(n == 1 or np.abs(w_out @ a @ w_in).max() <= 1e-9)
