"""The index of the first layer that sees the order (len(...) when none does), from next() over a generator,
returned as a 0-d numpy array."""

import numpy as np


def order_blind_layers(no_rope_layers, causal):
    if len(no_rope_layers) != len(causal):
        raise ValueError("no_rope_layers and causal must have one entry per layer")
    layers = list(zip(no_rope_layers, causal, strict=True))
    first = next((i for i, (rotates, masked) in enumerate(layers) if rotates == 1 or masked), len(layers))
    return np.array(first)
