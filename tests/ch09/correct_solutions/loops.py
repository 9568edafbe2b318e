"""Plain Python, no formula for the base: bisection on its logarithm until hand j's frequency is the old one divided
by the factor (it falls as the base grows), a float close to the exact one but not equal to it."""

import math


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
