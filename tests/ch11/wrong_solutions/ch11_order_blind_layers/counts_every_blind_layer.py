"""every layer that neither rotates nor masks is counted, wherever it sits. Hint: a layer above one that sees the
order receives, through the residual connection, outputs that already depend on it: stop counting there."""


def order_blind_layers(no_rope_layers, causal):
    if len(no_rope_layers) != len(causal):
        raise ValueError("no_rope_layers and causal must describe the same layers")
    return sum(1 for rotates, masked in zip(no_rope_layers, causal, strict=True) if not rotates and not masked)
