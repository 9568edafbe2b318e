"""Plain Python: positions in a list comprehension; no formula for the base, but bisection on its logarithm until hand
j's frequency is the old one divided by the factor (it falls as the base grows); the NTK ladder as a list of floats,
one hand at a time from theta_j * factor ** (-2j/(d-2)), d = 2 refused first."""

import math

import numpy as np


def interpolated_positions(positions, trained_length, target_length):
    return np.array([p * trained_length / target_length for p in positions])


def base_for_hand(d, factor, hand, base=10000.0):
    if hand < 1 or hand > d // 2 - 1:
        raise ValueError(f"base_for_hand: a larger base cannot slow hand {hand} of a head of width {d}")
    target = base ** (-2 * hand / d) / factor
    low, high = math.log(base), math.log(base) + 1.0
    while math.exp(high) ** (-2 * hand / d) > target:
        high += high - low
    for _ in range(200):
        middle = (low + high) / 2
        low, high = (middle, high) if math.exp(middle) ** (-2 * hand / d) > target else (low, middle)
    return math.exp((low + high) / 2)


def ntk_aware(d, factor, base=10000.0):
    if d == 2:
        raise ValueError("ntk_aware: d must be at least 4")
    return np.array([base ** (-2 * j / d) * factor ** (-2 * j / (d - 2)) for j in range(d // 2)])
