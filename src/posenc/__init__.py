"""posenc: the mathematics of *Where Words Are*, lecture notes on positional embeddings.

Every chapter of the book imports its computations from here, so that the prose, the figures and the
tests all run the same code. The modules are named for the ideas they hold:

- :mod:`posenc.attention`  -- softmax, scaled dot-product attention, permutations, causal masks
- :mod:`posenc.sinusoidal` -- the frequency ladder, the sinusoidal table, the shift matrix M_k
- :mod:`posenc.rotary`     -- rotations, the block-diagonal Theta_m, ``apply_rope`` in two layouts
- :mod:`posenc.scores`     -- score matrices and their Toeplitz / circulant structure
- :mod:`posenc.clock`      -- the RoPE clock: hand periods, readings mod 2 pi, near-collisions, separation
- :mod:`posenc.claims`     -- one checking function per claim of the lecture
- :mod:`posenc.scaling`    -- context extension: rescaled frequency ladders (PI, NTK, YaRN, Llama 3.1)
- :mod:`posenc.alibi`      -- ALiBi's head slopes and linear distance biases
- :mod:`posenc.torch_nn`   -- torch modules: a learned position table, an attention head, a tiny model
"""

__version__ = "0.1.0"
