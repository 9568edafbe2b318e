"""The exponent (d - 2) / d instead of d / (d - 2)."""

def ntk_base(base, scale, d):
    return float(base * scale ** ((d - 2) / d))
