"""Rotary position embeddings (RoPE; Su et al., 2021).

RoPE turns pair :math:`j` of a query or key at position :math:`m` by the angle :math:`m\\theta_j`, with
the ladder :math:`\\theta_j = \\text{base}^{-2j/d}` of :mod:`posenc.sinusoidal`. Stacking the
:math:`2\\times 2` rotations gives the block-diagonal

.. math:: \\Theta_m = \\operatorname{diag}\\big(R(m\\theta_0), \\ldots, R(m\\theta_{d/2-1})\\big), \\qquad
          R(\\alpha) = \\begin{bmatrix} \\cos\\alpha & -\\sin\\alpha \\\\ \\sin\\alpha & \\cos\\alpha \\end{bmatrix},

and because :math:`\\Theta_m^\\top\\Theta_n = \\Theta_{n-m}`, the score
:math:`(\\Theta_m q)^\\top(\\Theta_n k) = q^\\top\\Theta_{n-m}k` depends on the positions only through
:math:`n - m`.

Two pair layouts exist in the wild. ``"interleaved"`` pairs dimensions :math:`(2j, 2j+1)`, as in the
lecture and Meta's reference code; ``"half"`` pairs :math:`(j, j + d/2)`, as in Hugging Face's
``rotate_half``. :func:`interleaved_to_half` converts between them.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ._arrays import as_positions, block_diagonal_rotation, check_even_dimension
from .sinusoidal import frequencies

LAYOUTS = ("interleaved", "half")


def rotation_2d(angle: float) -> np.ndarray:
    """The counter-clockwise rotation :math:`R(\\alpha)` of the plane by ``angle`` radians, shape ``(2, 2)``."""
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s], [s, c]])


def rotation_angles(positions, d: int, base: float = 10000.0) -> np.ndarray:
    """The angles :math:`m\\theta_j` in float64, shape ``(len(positions), d//2)``: row ``m``, hand ``j``."""
    return np.outer(np.asarray(positions, dtype=np.float64), frequencies(d, base))


def rope_matrix(m: float, d: int, base: float = 10000.0) -> np.ndarray:
    """:math:`\\Theta_m`, shape ``(d, d)``: pair :math:`j` = dims ``(2j, 2j+1)`` rotated by :math:`m\\theta_j`.

    >>> np.allclose(rope_matrix(3, 4).T @ rope_matrix(5, 4), rope_matrix(2, 4))
    True
    """
    return block_diagonal_rotation(rotation_angles([m], d, base)[0])


def interleaved_to_half(d: int) -> np.ndarray:
    """The index array :math:`p = [0, 2, \\ldots, d-2, 1, 3, \\ldots, d-1]`.

    It gathers the interleaved pair :math:`(2j, 2j+1)` into positions :math:`(j, j + d/2)`, so that
    ``apply_rope(x[..., p], layout="half") == apply_rope(x, layout="interleaved")[..., p]``.
    """
    d = check_even_dimension(d, "interleaved_to_half")
    return np.concatenate([np.arange(0, d, 2), np.arange(1, d, 2)])


def half_to_interleaved(d: int) -> np.ndarray:
    """The inverse permutation of :func:`interleaved_to_half`: ``x[..., p][..., half_to_interleaved(d)] == x``."""
    return np.argsort(interleaved_to_half(d))


def apply_rope(x, positions=None, *, base: float = 10000.0, layout: str = "interleaved", out=None):
    """Rotate every pair of every vector in ``x`` by its position's angles: :math:`x_m \\mapsto \\Theta_m x_m`.

    Parameters
    ----------
    x : numpy array or torch tensor, shape ``(..., seq, d)`` with ``d`` even
        Queries or keys; any leading dimensions (batch, heads).
    positions : sequence of ``seq`` integers or floats, optional
        The position of each row; defaults to ``0, 1, ..., seq - 1``. With a KV cache, the new tokens
        sit at ``offset + arange(seq)``.
    base : float
        The base of the frequency ladder :math:`\\theta_j = \\text{base}^{-2j/d}`.
    layout : ``"interleaved"`` or ``"half"``
        Which dimensions form pair :math:`j`: :math:`(2j, 2j+1)` or :math:`(j, j + d/2)`.
    out : array or tensor of the same kind, shape and dtype as ``x``, optional
        Where to write the result (``out=x`` rotates in place); it is returned. For large inputs,
        allocating a fresh result costs more than the rotation itself (see the performance appendix).

    Returns
    -------
    Same kind (numpy or torch), shape and dtype as ``x`` (``out`` when given). For pair :math:`(x_a, x_b)` and angle
    :math:`\\alpha = m\\theta_j`:

    .. math:: x_a' = x_a\\cos\\alpha - x_b\\sin\\alpha, \\qquad x_b' = x_a\\sin\\alpha + x_b\\cos\\alpha .

    The angles are computed in float64 and the rotation applied in float64 for float64 inputs and in
    float32 otherwise (half-precision inputs are rounded back at the end).

    Examples
    --------
    >>> x = np.array([[1.0, 0.0], [1.0, 0.0]])
    >>> np.round(apply_rope(x), 4)    # position 1 turns (1, 0) by theta_0 = 1 radian
    array([[1.    , 0.    ],
           [0.5403, 0.8415]])
    """
    if layout not in LAYOUTS:
        raise ValueError(f"apply_rope: layout must be 'interleaved' or 'half', got {layout!r}")
    if getattr(x, "ndim", 0) < 2:
        raise ValueError(
            f"apply_rope: x must have shape (..., seq, d), got shape {tuple(getattr(x, 'shape', ()))}"
        )
    seq, d = x.shape[-2], x.shape[-1]
    if d % 2:
        raise ValueError(f"apply_rope: last dimension must be even (dimensions come in pairs), got d={d}")
    key = (as_positions(positions, seq, "apply_rope").tobytes(), d, float(base))
    if out is not None and (type(out) is not type(x) or out.shape != x.shape or out.dtype != x.dtype):
        raise ValueError(f"apply_rope: out must be a {type(x).__name__} of x's shape {tuple(x.shape)} and dtype "
                         f"{x.dtype}, got {type(out).__name__} {tuple(getattr(out, 'shape', ()))}")
    if type(x).__module__.startswith("torch"):
        from .torch_rope import apply_rope_torch

        return apply_rope_torch(x, key, layout, out)
    return _apply_rope_numpy(np.asarray(x), *cos_sin_table(*key), layout, out)


@lru_cache(maxsize=32)
def cos_sin_table(positions: bytes, d: int, base: float) -> tuple[np.ndarray, np.ndarray]:
    r""":math:`\cos(m\theta_j)` and :math:`\sin(m\theta_j)` in float64, shape ``(seq, d/2)``, for the
    float64 ``positions`` given as bytes (hashable, so that repeated calls reuse the table, as a model
    reuses its precomputed rotary cache). The arrays are read-only."""
    angles = rotation_angles(np.frombuffer(positions, dtype=np.float64), d, base)
    cos, sin = np.cos(angles), np.sin(angles)
    cos.flags.writeable = sin.flags.writeable = False
    return cos, sin


def _apply_rope_numpy(x: np.ndarray, cos: np.ndarray, sin: np.ndarray, layout: str,
                      out: np.ndarray | None = None) -> np.ndarray:
    """Numpy kernel of :func:`apply_rope`; ``cos`` and ``sin`` have shape ``(seq, d/2)``."""
    if not np.issubdtype(x.dtype, np.floating):
        raise TypeError(f"apply_rope: x must hold floating-point numbers, got dtype {x.dtype} (try x.astype(float))")
    work = np.float64 if x.dtype == np.float64 else np.float32
    if layout == "interleaved":  # each pair (2j, 2j+1) is the complex number x_2j + i x_2j+1
        as_complex = np.complex128 if work == np.float64 else np.complex64
        z, rotation = np.ascontiguousarray(x, dtype=work).view(as_complex), (cos + 1j * sin).astype(as_complex)
        if out is not None and out.dtype == work and out.flags.c_contiguous:
            np.multiply(z, rotation, out=out.view(as_complex))  # one pass, no allocation
            return out
        result = (z * rotation).view(work)
    else:
        half = x.shape[-1] // 2
        xa, xb = x[..., :half].astype(work), x[..., half:].astype(work)
        cos, sin = cos.astype(work), sin.astype(work)
        result = np.concatenate([xa * cos - xb * sin, xa * sin + xb * cos], axis=-1)
    if out is None:
        return result.astype(x.dtype, copy=False)
    out[...] = result
    return out


# ---- RoPE in practice (chapter 8): KV caches, padding, checkpoint conversion, precision, decay ----


def cached_decoding_scores(q: np.ndarray, k: np.ndarray, *, base: float = 10000.0) -> tuple[np.ndarray, np.ndarray]:
    r"""Scores computed as a decoder with a KV cache computes them: one token at a time.

    At step :math:`t` the new key is rotated at position :math:`t` and appended to the cache, where it is
    never touched again; the new query, rotated at position :math:`t`, is scored against the whole cache:
    :math:`S_{t,n} = (\Theta_t q_t)^\top(\Theta_n k_n)/\sqrt d` for :math:`n \le t`.

    Parameters
    ----------
    q, k : arrays of shape ``(seq, d)``
        The queries and keys of the tokens, in the order they are generated.

    Returns
    -------
    scores : array ``(seq, seq)``, row :math:`t` filled up to column :math:`t` and ``-inf`` beyond
        (the causal mask).
    cache : array ``(seq, d)``, the rotated keys as they sit in the cache at the end.
    """
    q, k = np.asarray(q, dtype=np.float64), np.asarray(k, dtype=np.float64)
    if q.ndim != 2 or q.shape != k.shape:
        raise ValueError(f"cached_decoding_scores: q and k must both have shape (seq, d), got {q.shape} and {k.shape}")
    seq, d = q.shape
    cache = np.empty((0, d))
    scores = np.full((seq, seq), -np.inf)
    for t in range(seq):
        cache = np.vstack([cache, apply_rope(k[t : t + 1], [t], base=base)])  # the old rows stay as they are
        scores[t, : t + 1] = cache @ apply_rope(q[t : t + 1], [t], base=base)[0] / np.sqrt(d)
    return scores, cache


def positions_from_mask(mask) -> np.ndarray:
    r"""Each token's position counted over the real tokens of its row: ``cumsum(mask) - 1``.

    ``mask`` (shape ``(..., seq)``, 1 for a token and 0 for padding) is the attention mask of a padded
    batch. A row padded on the left, ``[0, 0, 1, 1]``, gets positions ``[0, 0, 0, 1]``: its first real
    token sits at 0 exactly as it would without padding. Padding slots get 0; they are masked out, so their
    value never reaches a score.

    >>> positions_from_mask([[1, 1, 1, 1], [0, 0, 1, 1]])
    array([[0, 1, 2, 3],
           [0, 0, 0, 1]])
    """
    mask = np.asarray(mask)
    if mask.ndim < 1 or not np.all((mask == 0) | (mask == 1)):
        raise ValueError("positions_from_mask: mask must be an array of 0s and 1s (1 marks a real token)")
    return np.where(mask == 1, np.cumsum(mask, axis=-1) - 1, 0).astype(np.int64)


def interleaved_to_half_rows(n_heads: int, head_dim: int) -> np.ndarray:
    r"""Row order that converts a stacked :math:`W_Q` or :math:`W_K` from the interleaved to the half layout.

    The projection's output rows hold ``n_heads`` blocks of ``head_dim`` rows; within each block the rows
    are reordered by :func:`interleaved_to_half`, and the blocks stay where they are. With
    ``w_half = w[interleaved_to_half_rows(h, d)]`` a checkpoint written for interleaved RoPE (Meta's code)
    gives the same scores under half RoPE (Hugging Face's ``rotate_half``).

    >>> interleaved_to_half_rows(2, 4)
    array([0, 2, 1, 3, 4, 6, 5, 7])
    """
    if isinstance(n_heads, bool) or not isinstance(n_heads, int | np.integer) or n_heads < 1:
        raise ValueError(f"interleaved_to_half_rows: n_heads must be a positive integer, got {n_heads!r}")
    within = interleaved_to_half(head_dim)
    return (np.arange(n_heads)[:, None] * head_dim + within[None, :]).ravel()


def round_to(values, dtype: str) -> np.ndarray:
    """``values`` rounded to the floating-point format ``dtype`` (``"bfloat16"``, ``"float16"``,
    ``"float32"`` or ``"float64"``; round to nearest, ties to even) and returned as float64.

    numpy has no bfloat16, which is the upper half of a float32: the value is rounded to float32 and the
    lower 16 bits of the float32 are then rounded away, as torch's conversion does.

    >>> round_to([256, 257, 258], "bfloat16")
    array([256., 256., 258.])
    """
    formats = {"bfloat16": None, "float16": np.float16, "float32": np.float32, "float64": np.float64}
    if dtype not in formats:
        raise ValueError(f"round_to: dtype must be bfloat16, float16, float32 or float64, got {dtype!r}")
    values = np.asarray(values, dtype=np.float64)
    if dtype != "bfloat16":
        return values.astype(formats[dtype]).astype(np.float64)
    bits = values.astype(np.float32).view(np.uint32).astype(np.uint64)
    tie_to_even = ((bits >> 16) & 1) + 0x7FFF  # add just under half a unit, or half a unit if that makes it even
    upper = (((bits + tie_to_even) >> 16) << 16).astype(np.uint32)
    return np.where(np.isnan(values), np.nan, upper.view(np.float32).astype(np.float64))


def angles_in_precision(positions, d: int, base: float, dtype: str) -> np.ndarray:
    r"""The angles :math:`m\theta_j` as a framework computes them when positions, frequencies and their
    product are all held in ``dtype`` (see :func:`round_to`), shape ``(len(positions), d//2)``, float64.

    The frequencies are computed in float64 and rounded to ``dtype``, the positions are rounded to
    ``dtype``, and their product is rounded once more. The product of two numbers of these formats is
    exact in float64, so the last rounding gives the correctly rounded product, as the hardware does.
    """
    m = round_to(np.atleast_1d(positions), dtype)
    return round_to(np.outer(m, round_to(frequencies(d, base), dtype)), dtype)


def rope_partial_sums(distances, d: int, base: float = 10000.0) -> np.ndarray:
    r"""RoFormer's partial sums :math:`S_j(r) = \sum_{k=0}^{j-1} e^{\mathrm{i} r\theta_k}`, :math:`j = 1..d/2`.

    Complex, shape ``(len(distances), d//2)``; column ``j - 1`` holds :math:`S_j`. They appear in the
    bound of Su et al. (2021, §3.4.3) on the score of two tokens ``r`` positions apart.
    """
    angles = rotation_angles(np.atleast_1d(distances), d, base)  # (len, d/2): r * theta_k
    return np.cumsum(np.exp(1j * angles), axis=-1)


def long_term_decay_bound(distances, d: int, base: float = 10000.0) -> np.ndarray:
    r"""RoFormer's relative upper bound :math:`\frac{1}{d/2}\sum_{j=1}^{d/2} |S_j(r)|` for each distance ``r``.

    Multiplied by :math:`\tfrac d2\max_i |h_{i+1} - h_i|` it bounds the size of the score (Su et al.,
    2021, §3.4.3); RoFormer shows it falling with the distance. Shape ``(len(distances),)``.

    >>> long_term_decay_bound([0], 8)    # at distance 0, |S_j| = j: the mean of 1, 2, 3, 4
    array([2.5])
    """
    return np.abs(rope_partial_sums(distances, d, base)).mean(axis=-1)


def long_term_decay_octaves(d: int, base: float = 10000.0, octaves: int = 20,
                            samples: int = 256) -> tuple[np.ndarray, np.ndarray]:
    r"""The mean of :func:`long_term_decay_bound` over each octave of distances :math:`[2^k, 2^{k+1})`.

    Each octave is sampled at ``samples`` evenly spaced integer distances. Returns the octave edges,
    shape ``(octaves + 1,)``, and the means, shape ``(octaves,)``: a smooth summary of a curve that
    oscillates too fast to read at large distances.
    """
    edges = 2.0 ** np.arange(octaves + 1)
    means = [long_term_decay_bound(np.unique(np.floor(np.linspace(lo, hi, samples, endpoint=False))), d, base).mean()
             for lo, hi in zip(edges[:-1], edges[1:], strict=True)]
    return edges, np.array(means)


def random_walk_level(d: int) -> float:
    r""":math:`\frac{1}{d/2}\sum_{j=1}^{d/2} \tfrac12\sqrt{\pi j}`: about the value of the relative bound
    when every angle :math:`r\theta_k` is effectively random, since a sum of :math:`j` unit complex numbers
    with independent uniform phases has mean length close to :math:`\tfrac12\sqrt{\pi j}`."""
    j = np.arange(1, d // 2 + 1)
    return float(np.mean(np.sqrt(np.pi * j) / 2))
