"""the angle is not reduced modulo a full turn. Hint: angles 2π apart are the same place."""

def alias_distance(theta, k):
    return float(abs(k * theta))
