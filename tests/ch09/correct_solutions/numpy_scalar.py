"""np.power, a numpy float64 returned as is; the hands that no base slows refused first."""

import numpy as np


def base_for_hand(d, factor, hand, base=10000.0):
    if hand <= 0 or hand >= d // 2:
        raise ValueError(f"base_for_hand: hand {hand} cannot be slowed in a head of width {d}")
    return np.float64(base) * np.power(factor, d / (2 * hand))
