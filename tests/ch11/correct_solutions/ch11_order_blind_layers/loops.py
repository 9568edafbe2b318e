"""A while loop over the layer indices, stopping at the first layer that rotates or masks."""


def order_blind_layers(no_rope_layers, causal):
    if len(no_rope_layers) != len(causal):
        raise ValueError("no_rope_layers and causal must describe the same layers")
    i = 0
    while i < len(causal) and no_rope_layers[i] == 0 and not causal[i]:
        i += 1
    return i
