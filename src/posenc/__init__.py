"""posenc: the mathematics of *Where Words Are*, lecture notes on positional embeddings.

Every chapter of the book imports its computations from here, so that the prose, the figures and the
tests all run the same code. Each module holds one idea of the lecture, its mathematics, whichever chapter
uses it; imports between them run one way, and none imports :mod:`posenc.book`, the layer above them that
serves the chapters (figures, experiments, explorers, self-checks).

- :mod:`posenc.validation`   -- the validation of every argument (TypeError: wrong kind; ValueError: wrong value)
- :mod:`posenc.attention`    -- softmax, scaled dot-product attention, permutations, causal masks
- :mod:`posenc.geometry`     -- rotations of the plane, plane angles, block-diagonal rotations, why rotation is forced
- :mod:`posenc.sinusoidal`   -- the frequency ladder, the sinusoidal table, the shift matrix M_k
- :mod:`posenc.angle_tables` -- RoPE's angles m theta_j and their cached cos/sin tables
- :mod:`posenc.rotary`       -- the block-diagonal Theta_m, ``apply_rope`` in two layouts, layout permutations
- :mod:`posenc.rotary_axes`  -- RoPE over part of the head or several position axes: partial, 2-D, M-RoPE
- :mod:`posenc.scores`       -- score matrices and their Toeplitz / circulant structure
- :mod:`posenc.fourier`      -- a head's score profile as a trigonometric polynomial
- :mod:`posenc.clock`        -- the RoPE clock: hand periods, readings mod 2 pi, near-collisions, separation
- :mod:`posenc.decoding`     -- RoPE while generating: the positions of a padded batch
- :mod:`posenc.precision`    -- rounding to bfloat16 / float16 / float32, and angles held in them
- :mod:`posenc.decay`        -- RoFormer's long-term decay bound
- :mod:`posenc.scaling`      -- context extension: rescaled frequency ladders (PI, NTK, YaRN, Llama 3.1, LongRoPE)
- :mod:`posenc.mixed_layers` -- stacks of mixed layers: NoPE layers and their temperature, windows and chunks
- :mod:`posenc.latent_attention` -- multi-head latent attention: the absorbed key, the decoupled rotary part
- :mod:`posenc.alibi`        -- ALiBi's head slopes and linear distance biases
- :mod:`posenc.relative`     -- offsets in the score: Shaw's clipped table, Transformer-XL's terms, T5's buckets
- :mod:`posenc.xpos`         -- xPos: RoPE with a per-pair decay in the offset
- :mod:`posenc.torch_nn`     -- torch modules: a learned position table, an attention head, a tiny model
                               with a choice of position scheme
"""

from importlib.metadata import PackageNotFoundError, version

try:  # the release is written once, in pyproject.toml; the installed metadata carries it
    __version__ = version("posenc")
except PackageNotFoundError:  # a source tree on sys.path that was never installed
    __version__ = "unknown"
