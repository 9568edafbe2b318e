"""The angle of e^{i k theta}, made positive."""

import cmath


def alias_distance(theta, k):
    return abs(cmath.phase(cmath.exp(1j * k * theta)))
