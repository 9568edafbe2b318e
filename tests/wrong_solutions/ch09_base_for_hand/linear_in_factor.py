"""The base multiplied by the factor itself."""


def base_for_hand(d, factor, hand, base=10000.0):
    if not 0 < hand < d // 2:
        raise ValueError("no base slows this hand")
    return float(base * factor)
