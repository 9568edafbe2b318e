"""The base multiplied by the scale itself."""

def ntk_base(base, scale, d):
    return float(base * scale)
