"""The paper's recursive get_slopes, in plain Python with math and a list (a list of floats is turned into an
array at the end)."""

import math

import numpy as np


def alibi_slopes(n_heads):
    def power_of_two(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        return [start * start**i for i in range(n)]

    if math.log2(n_heads).is_integer():
        return np.array(power_of_two(n_heads))
    closest = 2 ** math.floor(math.log2(n_heads))
    return np.array(power_of_two(closest) + power_of_two(2 * closest)[0::2][: n_heads - closest])
