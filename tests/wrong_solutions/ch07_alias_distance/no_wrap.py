"""The raw angle k*theta, never reduced modulo a turn."""

def alias_distance(theta, k):
    return float(abs(k * theta))
