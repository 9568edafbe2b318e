"""posenc: the mathematics of *Where Words Are*, lecture notes on positional embeddings.

Every chapter of the book imports its computations from here, so that the prose, the figures and the
tests all run the same code. The modules come in two layers, and imports run one way, from the second
layer down to the first:

Ideas: one module per idea of the lecture, holding its mathematics, whichever chapter uses it.

- :mod:`posenc.checks`       -- the input checks of every function (TypeError: wrong kind; ValueError: wrong value)
- :mod:`posenc.attention`    -- softmax, scaled dot-product attention, permutations, causal masks
- :mod:`posenc.geometry`     -- rotations of the plane, the angle between two plane vectors, block-diagonal rotations
- :mod:`posenc.sinusoidal`   -- the frequency ladder, the sinusoidal table, the shift matrix M_k
- :mod:`posenc.angle_tables` -- RoPE's angles m theta_j and their cached cos/sin tables
- :mod:`posenc.rotary`       -- the block-diagonal Theta_m, ``apply_rope`` in two layouts, layout permutations
- :mod:`posenc.scores`       -- score matrices and their Toeplitz / circulant structure
- :mod:`posenc.fourier`      -- a head's score profile as a trigonometric polynomial; circulants and the DFT
- :mod:`posenc.clock`        -- the RoPE clock: hand periods, readings mod 2 pi, near-collisions, separation
- :mod:`posenc.decoding`     -- RoPE while generating: a KV cache, positions of a left-padded batch
- :mod:`posenc.precision`    -- rounding to bfloat16 / float16 / float32, and angles held in them
- :mod:`posenc.decay`        -- RoFormer's long-term decay bound
- :mod:`posenc.scaling`      -- context extension: rescaled frequency ladders (PI, NTK, YaRN, Llama 3.1)
- :mod:`posenc.alibi`        -- ALiBi's head slopes and linear distance biases
- :mod:`posenc.torch_nn`     -- torch modules: a learned position table, an attention head, a tiny model

Chapter services: named for what they do for a chapter, built on the ideas, never imported by them.

- :mod:`posenc.claims`    -- one checking function per claim of the lecture
- :mod:`posenc.plots`     -- the book's figure style and figure helpers
- :mod:`posenc.glue`      -- ``glue``: hands computed numbers and figures to the prose (myst-nb)
- :mod:`posenc.explorers` -- the interactive explorers (anywidget)
- :mod:`posenc.selfcheck` -- the students' self-checks in the exercise notebooks
"""

__version__ = "0.1.0"
