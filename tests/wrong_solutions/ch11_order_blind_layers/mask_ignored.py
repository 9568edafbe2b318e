"""Only rotation is taken to reveal the order: a causal NoPE layer is counted as blind."""


def order_blind_layers(no_rope_layers, causal):
    if len(no_rope_layers) != len(causal):
        raise ValueError("no_rope_layers and causal must describe the same layers")
    blind = 0
    for rotates in no_rope_layers:
        if rotates:
            break
        blind += 1
    return blind
