"""the exponent is upside down. Hint: write the frequency of hand j with the new base, set it equal to the old one
divided by the factor, and solve for the new base."""


def base_for_hand(d, factor, hand, base=10000.0):
    if not 0 < hand < d // 2:
        raise ValueError("no base slows this hand")
    return float(base * factor ** (2 * hand / d))
