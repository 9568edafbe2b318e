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

import numpy as np

from . import validation
from .angle_tables import _cos_sin
from .geometry import block_diagonal_rotation
from .sinusoidal import frequencies

LAYOUTS = ("interleaved", "half")


def rope_matrix(m: float, d: int, base: float = 10000.0) -> np.ndarray:
    """:math:`\\Theta_m`, shape ``(d, d)``: pair :math:`j` = dims ``(2j, 2j+1)`` rotated by :math:`m\\theta_j`.

    >>> np.allclose(rope_matrix(3, 4).T @ rope_matrix(5, 4), rope_matrix(2, 4))
    True
    """
    m = validation.real(m, "m", "rope_matrix")
    d, base = validation.ladder(d, base, "rope_matrix")
    return block_diagonal_rotation(m * frequencies(d, base))  # the angles m theta_j, one block per pair


def interleaved_to_half(d: int) -> np.ndarray:
    """The index array :math:`p = [0, 2, \\ldots, d-2, 1, 3, \\ldots, d-1]`.

    It gathers the interleaved pair :math:`(2j, 2j+1)` into positions :math:`(j, j + d/2)`, so that
    ``apply_rope(x[..., p], layout="half") == apply_rope(x, layout="interleaved")[..., p]``.
    """
    d = validation.even_dimension(d, "interleaved_to_half")
    return np.concatenate([np.arange(0, d, 2), np.arange(1, d, 2)])


def half_to_interleaved(d: int) -> np.ndarray:
    """The inverse permutation of :func:`interleaved_to_half`: ``x[..., p][..., half_to_interleaved(d)] == x``."""
    return np.argsort(interleaved_to_half(validation.even_dimension(d, "half_to_interleaved")))


def interleaved_to_half_rows(n_heads: int, head_dim: int, rotary_dim: int | None = None) -> np.ndarray:
    r"""Row order that converts a stacked :math:`W_Q` or :math:`W_K` from the interleaved to the half layout.

    The projection's output rows hold ``n_heads`` blocks of ``head_dim`` rows; within each block the first
    ``rotary_dim`` rows (all of them by default; fewer under partial rotary, which turns only those) are
    reordered by :func:`interleaved_to_half`, the others and the blocks stay where they are. With
    ``w_half = w[interleaved_to_half_rows(h, d)]`` a checkpoint written for interleaved RoPE (Meta's code)
    gives the same scores under half RoPE (Hugging Face's ``rotate_half``).

    >>> interleaved_to_half_rows(2, 4)
    array([0, 2, 1, 3, 4, 6, 5, 7])
    >>> interleaved_to_half_rows(1, 6, rotary_dim=4)
    array([0, 2, 1, 3, 4, 5])
    """
    who = "interleaved_to_half_rows"
    n_heads = validation.integer(n_heads, "n_heads", who, minimum=1)
    head_dim = validation.even_dimension(head_dim, who, "head_dim")
    rotary_dim = head_dim if rotary_dim is None else validation.even_dimension(rotary_dim, who, "rotary_dim")
    if rotary_dim > head_dim:
        raise ValueError(f"{who}: rotary_dim ({rotary_dim}) must be at most head_dim ({head_dim})")
    within = np.concatenate([interleaved_to_half(rotary_dim), np.arange(rotary_dim, head_dim)])
    return (np.arange(n_heads)[:, None] * head_dim + within[None, :]).ravel()


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
        Where to write the result (``out=x`` rotates in place); it is returned. For a large torch tensor,
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
    who = "apply_rope"
    layout = validation.option(layout, LAYOUTS, "layout", who)
    validation.rotatable(x, who, pairs=True)
    positions = validation.positions(positions, x.shape[-2], who)
    base = validation.base(base, who)
    validation.like(out, x, "out", who)
    return _rope(x, positions, base, layout, out)


def _rope(x, positions, base: float = 10000.0, layout: str = "interleaved", out=None):
    """:func:`apply_rope` on validated inputs, without validation: ``x`` a floating-point numpy array or torch tensor
    of shape ``(..., seq, d)``, ``d`` even; ``positions`` ``seq`` finite real numbers; ``base > 1``; ``layout``
    one of :data:`LAYOUTS`; ``out`` ``None`` or like ``x``. For the modules that have checked their own
    arguments already."""
    if isinstance(x, np.ndarray):
        return _rope_numpy(x, positions, base, layout, out)
    from ._rope_torch import rotate  # torch is imported only when a tensor comes in

    return rotate(x, positions, base, layout, out)


def _rope_numpy(x: np.ndarray, positions, base: float, layout: str, out: np.ndarray | None) -> np.ndarray:
    """The numpy side of :func:`_rope`: the formula of :func:`_rotate_pairs` in float64 for float64 input and in
    float32 otherwise, then the result in ``x``'s dtype, or written into ``out``."""
    work = np.float64 if x.dtype == np.float64 else np.float32
    tables = _cos_sin(np.asarray(positions, dtype=np.float64).tobytes(), x.shape[-1], base)
    cos, sin = (table.astype(work, copy=False) for table in tables)
    turned = _rotate_pairs(np.ascontiguousarray(x, dtype=work), cos, sin, layout)
    if out is None:
        return turned.astype(x.dtype, copy=False)
    out[...] = turned
    return out


def _rotate_pairs(x: np.ndarray, cos: np.ndarray, sin: np.ndarray, layout: str) -> np.ndarray:
    """Turn pair j of row m of x by the angle whose cosine is cos[m, j] and whose sine is sin[m, j].

    x: shape (..., seq, d), C-contiguous; cos, sin: shape (seq, d/2), of x's dtype."""
    if layout == "interleaved":  # pair (x_2j, x_2j+1) is the complex number x_2j + i x_2j+1
        rotation = cos + 1j * sin  # e^{i m theta_j}
        return (x.view(rotation.dtype) * rotation).view(x.dtype)
    a, b = np.split(x, 2, axis=-1)  # pair (x_j, x_j+d/2) is (a_j, b_j)
    return np.concatenate([a * cos - b * sin, a * sin + b * cos], axis=-1)


# ---- An explicit frequency ladder (chapter 9's experiment): RoPE with the ladders of posenc.scaling ----


def rope_with_ladder(x, frequencies, positions=None):
    r"""RoPE with an explicit frequency ladder: pair :math:`j` of row :math:`m` turned by :math:`m\theta'_j`.

    Built from :func:`apply_rope` one pair at a time: a single pair (:math:`d = 2`) has the
    ladder :math:`\theta_0 = 1` whatever the base, so rotating pair :math:`j` at the positions
    :math:`m\theta'_j` turns it by exactly :math:`m\theta'_j`. With
    ``frequencies = frequencies(d, base)`` this is ``apply_rope(x, positions, base=base)``; with a ladder
    from :mod:`posenc.scaling` it is that method's RoPE. ``x`` has shape ``(..., seq, d)``, numpy or torch,
    in the interleaved layout; ``positions`` default to ``0, ..., seq - 1``.

    >>> from posenc.sinusoidal import frequencies
    >>> x = np.random.default_rng(0).standard_normal((5, 8))
    >>> bool(np.allclose(rope_with_ladder(x, frequencies(8, 100.0)), apply_rope(x, base=100.0)))
    True
    """
    who = "rope_with_ladder"
    torch_input = validation.rotatable(x, who)
    theta = validation.real_vector(frequencies, "frequencies", who)
    if 2 * theta.size != x.shape[-1]:
        raise ValueError(f"{who}: frequencies must have d/2 = {x.shape[-1] // 2} entries for d={x.shape[-1]}, "
                         f"got {theta.size}")
    positions = validation.positions(positions, x.shape[-2], who)
    pairs = [_rope(x[..., 2 * j:2 * j + 2], positions * theta_j) for j, theta_j in enumerate(theta)]
    return _join(pairs, torch_input)


def _join(parts, torch_input: bool):
    """Concatenate pieces of heads along the last axis, as torch tensors or as numpy arrays."""
    if torch_input:
        import torch

        return torch.cat(parts, dim=-1)
    return np.concatenate(parts, axis=-1)
