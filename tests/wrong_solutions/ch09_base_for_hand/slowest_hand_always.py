"""The NTK-aware base whatever the hand: it slows the slowest hand by the factor, not the hand asked for."""


def base_for_hand(d, factor, hand, base=10000.0):
    if not 0 < hand < d // 2:
        raise ValueError("no base slows this hand")
    return float(base * factor ** (d / (d - 2)))
