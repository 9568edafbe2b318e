r"""Stacks whose layers see position in different ways: which layers rotate, how far each one looks, and the
temperature of the layers that do not rotate.

Several models of 2025 mix two kinds of attention layer in one stack:

- **RoPE and NoPE layers** (Llama 4's iRoPE, SmolLM3): every :math:`n`-th layer applies no rotation at all;
  Llama 4 multiplies the queries of those layers by a temperature that grows with the position;
- **local and global layers** (Gemma 3; Llama 4's rotating layers): most layers see only a window of recent
  keys or the keys of their own chunk, every :math:`n`-th layer sees the whole context.

A layer that sees only keys less than :math:`L_\text{win}` positions back meets the offsets
:math:`-(L_\text{win} - 1), \ldots, 0` and no others, whatever the length of the input, so it never turns a
hand through an angle it did not meet in training.
"""

from __future__ import annotations

import numpy as np

from . import validation
from .attention import causal_mask
from .relative import offsets


def every_nth_layer(n_layers: int, n: int) -> np.ndarray:
    r"""Which layers of a stack of ``n_layers`` are the odd ones out when every ``n``-th layer is: ``True`` at
    layers :math:`n - 1, 2n - 1, \ldots` (counting from 0).

    With :math:`n = 4` these are Llama 4's and SmolLM3's NoPE layers (their configurations store the complement,
    ``no_rope_layers[i] = int((i + 1) % 4 != 0)``: 1 for a layer that *does* rotate); with :math:`n = 6`
    Gemma 3's global layers (``sliding_window_pattern = 6``: five local layers, then one global).

    >>> every_nth_layer(8, 4)
    array([False, False, False,  True, False, False, False,  True])
    """
    n_layers = validation.integer(n_layers, "n_layers", "every_nth_layer", minimum=1)
    n = validation.integer(n, "n", "every_nth_layer", minimum=1)
    return (np.arange(n_layers) + 1) % n == 0


def nope_temperature(positions, floor_scale: float = 8192.0, attn_scale: float = 0.1) -> np.ndarray:
    r"""Llama 4's factor on the queries of a NoPE layer at position :math:`m`:

    .. math:: 1/t_m = 1 + \texttt{attn\_scale}\cdot\ln\Big(1 + \Big\lfloor
              \frac{m + 1}{\texttt{floor\_scale}}\Big\rfloor\Big) .

    It is 1 for the first ``floor_scale - 1`` positions and then grows by steps, like the logarithm of the
    position; multiplying a query by :math:`1/t_m` multiplies all its logits by :math:`1/t_m`, which sharpens
    a softmax that more keys would flatten. Hugging Face's ``Llama4TextAttention`` counts :math:`m` from the
    start of the sequence (the cache length plus the index), not from the position ids.

    >>> nope_temperature([0, 8190, 8191, 3 * 8192 - 1]).round(4)
    array([1.    , 1.    , 1.0693, 1.1386])
    """
    who = "nope_temperature"
    positions = validation.real_vector(positions, "positions", who)
    floor_scale = validation.real(floor_scale, "floor_scale", who, above=0.0)
    attn_scale = validation.real(attn_scale, "attn_scale", who)
    if np.any(positions < 0):
        raise ValueError(f"{who}: positions must be at least 0 (indices in the sequence), got {positions.min():g}")
    return 1.0 + attn_scale * np.log1p(np.floor((positions + 1.0) / floor_scale))


def window_mask(n: int, window: int) -> np.ndarray:
    r"""Boolean ``(n, n)`` mask of a causal sliding window: query :math:`m` sees keys
    :math:`m - \text{window} + 1, \ldots, m` (Gemma 3's local layers with ``sliding_window``; Hugging Face's
    ``sliding_window_causal_mask_function``). ``True`` where a query may look, as in
    :func:`posenc.attention.causal_mask`.

    >>> window_mask(4, 2).astype(int)
    array([[1, 0, 0, 0],
           [1, 1, 0, 0],
           [0, 1, 1, 0],
           [0, 0, 1, 1]])
    """
    n = validation.integer(n, "n", "window_mask", minimum=0)
    window = validation.integer(window, "window", "window_mask", minimum=1)
    return causal_mask(n) & (-offsets(n) < window)  # m - n: how far back the key lies


def chunk_mask(n: int, chunk: int) -> np.ndarray:
    r"""Boolean ``(n, n)`` mask of causal chunked attention: query :math:`m` sees the keys
    :math:`n \le m` of its own chunk, :math:`\lfloor n/\text{chunk}\rfloor = \lfloor m/\text{chunk}\rfloor`
    (Llama 4's rotating layers with ``attention_chunk_size``).

    >>> chunk_mask(4, 2).astype(int)
    array([[1, 0, 0, 0],
           [1, 1, 0, 0],
           [0, 0, 1, 0],
           [0, 0, 1, 1]])
    """
    n = validation.integer(n, "n", "chunk_mask", minimum=0)
    chunk = validation.integer(chunk, "chunk", "chunk_mask", minimum=1)
    block = np.arange(n) // chunk
    return causal_mask(n) & np.equal.outer(block, block)
