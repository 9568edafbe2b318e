"""numpy throughout: a running "has any layer so far rotated or masked?" (logical_or.accumulate), and the count of
the layers before it turns True, returned as a numpy integer."""

import numpy as np


def order_blind_layers(no_rope_layers, causal):
    rotates, masked = np.asarray(no_rope_layers, dtype=bool), np.asarray(causal, dtype=bool)
    if rotates.shape != masked.shape:
        raise ValueError(f"no_rope_layers has {rotates.size} layers, causal {masked.size}")
    return np.sum(~np.logical_or.accumulate(rotates | masked))
