"""hand 0, or a hand the head does not have, is not refused. Hint: hand 0 turns by 1 radian per position whatever the
base, and a head of width d has hands 0 to d/2 - 1 only: raise ValueError for the others."""


def base_for_hand(d, factor, hand, base=10000.0):
    return float(base * factor ** (d / (2 * hand)))
