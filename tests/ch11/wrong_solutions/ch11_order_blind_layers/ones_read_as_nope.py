"""a 1 in no_rope_layers is read as a NoPE layer. Hint: transformers' no_rope_layers holds 1 for a layer that does
rotate."""


def order_blind_layers(no_rope_layers, causal):
    if len(no_rope_layers) != len(causal):
        raise ValueError("no_rope_layers and causal must describe the same layers")
    blind = 0
    for no_rope, masked in zip(no_rope_layers, causal, strict=True):
        if not no_rope or masked:
            break
        blind += 1
    return blind
