"""W_out A^0 W_in = W_out W_in is required to vanish too, though a token reaching its own output is no sign of
order. Hint: permuting the tokens permutes the outputs whatever x_m gives y_m; only the offsets l = 1, ..., n - 1
between a token and a later output matter."""

import numpy as np


def order_blind(a, w_in, w_out, n):
    a, w_in, w_out = (np.asarray(x, dtype=float) for x in (a, w_in, w_out))
    reach, blind = w_in, np.abs(w_out @ w_in).max() <= 1e-9
    for _ in range(1, n):
        reach = a @ reach
        blind = blind and np.abs(w_out @ reach).max() <= 1e-9
    return bool(blind)
