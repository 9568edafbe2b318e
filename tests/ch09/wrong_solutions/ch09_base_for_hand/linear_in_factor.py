"""multiplying the base by the factor slows the hand by less than the factor. Hint: the base enters hand j's
frequency through the power -2j/d."""


def base_for_hand(d, factor, hand, base=10000.0):
    if not 0 < hand < d // 2:
        raise ValueError("no base slows this hand")
    return float(base * factor)
