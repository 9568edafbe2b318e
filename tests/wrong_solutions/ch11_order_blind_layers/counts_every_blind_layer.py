"""Counts every layer that neither rotates nor masks, wherever it sits, as if a NoPE layer above a rotating one
were still blind to the order."""


def order_blind_layers(no_rope_layers, causal):
    if len(no_rope_layers) != len(causal):
        raise ValueError("no_rope_layers and causal must describe the same layers")
    return sum(1 for rotates, masked in zip(no_rope_layers, causal, strict=True) if not rotates and not masked)
