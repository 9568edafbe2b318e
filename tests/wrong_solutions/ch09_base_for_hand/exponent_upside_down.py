"""The exponent 2j/d instead of d/(2j)."""


def base_for_hand(d, factor, hand, base=10000.0):
    if not 0 < hand < d // 2:
        raise ValueError("no base slows this hand")
    return float(base * factor ** (2 * hand / d))
