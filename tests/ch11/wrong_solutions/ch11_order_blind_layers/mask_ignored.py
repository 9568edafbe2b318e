"""the causal mask is left out. Hint: a causal mask alone breaks permutation equivariance."""


def order_blind_layers(no_rope_layers, causal):
    if len(no_rope_layers) != len(causal):
        raise ValueError("no_rope_layers and causal must describe the same layers")
    blind = 0
    for rotates in no_rope_layers:
        if rotates:
            break
        blind += 1
    return blind
