"""The right base for hands 1 to d/2 - 1, but hand 0 is not refused: it divides by zero (ZeroDivisionError, not
ValueError), and a hand the head does not have gets a base."""


def base_for_hand(d, factor, hand, base=10000.0):
    return float(base * factor ** (d / (2 * hand)))
