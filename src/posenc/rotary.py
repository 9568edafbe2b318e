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

from . import _half_kernel, checks
from .angle_tables import cos_sin_table, rotation_angles
from .geometry import block_diagonal_rotation

LAYOUTS = ("interleaved", "half")


def rope_matrix(m: float, d: int, base: float = 10000.0) -> np.ndarray:
    """:math:`\\Theta_m`, shape ``(d, d)``: pair :math:`j` = dims ``(2j, 2j+1)`` rotated by :math:`m\\theta_j`.

    >>> np.allclose(rope_matrix(3, 4).T @ rope_matrix(5, 4), rope_matrix(2, 4))
    True
    """
    m = checks.real(m, "m", "rope_matrix")
    return block_diagonal_rotation(rotation_angles([m], *checks.ladder(d, base, "rope_matrix"))[0])


def interleaved_to_half(d: int) -> np.ndarray:
    """The index array :math:`p = [0, 2, \\ldots, d-2, 1, 3, \\ldots, d-1]`.

    It gathers the interleaved pair :math:`(2j, 2j+1)` into positions :math:`(j, j + d/2)`, so that
    ``apply_rope(x[..., p], layout="half") == apply_rope(x, layout="interleaved")[..., p]``.
    """
    d = checks.even_dimension(d, "interleaved_to_half")
    return np.concatenate([np.arange(0, d, 2), np.arange(1, d, 2)])


def half_to_interleaved(d: int) -> np.ndarray:
    """The inverse permutation of :func:`interleaved_to_half`: ``x[..., p][..., half_to_interleaved(d)] == x``."""
    return np.argsort(interleaved_to_half(checks.even_dimension(d, "half_to_interleaved")))


def interleaved_to_half_rows(n_heads: int, head_dim: int) -> np.ndarray:
    r"""Row order that converts a stacked :math:`W_Q` or :math:`W_K` from the interleaved to the half layout.

    The projection's output rows hold ``n_heads`` blocks of ``head_dim`` rows; within each block the rows
    are reordered by :func:`interleaved_to_half`, and the blocks stay where they are. With
    ``w_half = w[interleaved_to_half_rows(h, d)]`` a checkpoint written for interleaved RoPE (Meta's code)
    gives the same scores under half RoPE (Hugging Face's ``rotate_half``).

    >>> interleaved_to_half_rows(2, 4)
    array([0, 2, 1, 3, 4, 6, 5, 7])
    """
    n_heads = checks.integer(n_heads, "n_heads", "interleaved_to_half_rows", minimum=1)
    head_dim = checks.even_dimension(head_dim, "interleaved_to_half_rows")
    within = interleaved_to_half(head_dim)
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
    who = "apply_rope"
    layout = checks.option(layout, LAYOUTS, "layout", who)
    torch_input = checks.rotatable(x, who)
    if x.shape[-1] % 2:
        raise ValueError(f"{who}: last dimension must be even (dimensions come in pairs), got d={x.shape[-1]}")
    positions = checks.positions(positions, x.shape[-2], who)
    base = checks.base(base, who)
    _check_out(out, x)
    if torch_input:
        from ._rope_torch import rotate

        return rotate(x, positions, base, layout, out)
    return _rotate_numpy(x, *cos_sin_table(positions, x.shape[-1], base), layout, out)


def _check_out(out, x) -> None:
    """``out`` must be ``None`` or an array of ``x``'s kind and dtype (else TypeError) and shape (else ValueError)."""
    if out is None:
        return
    if type(out) is not type(x) or out.dtype != x.dtype:
        raise TypeError(f"apply_rope: out must be a {type(x).__name__} of dtype {x.dtype} like x, "
                        f"got {type(out).__name__} of dtype {getattr(out, 'dtype', None)}")
    if out.shape != x.shape:
        raise ValueError(f"apply_rope: out must have x's shape {tuple(x.shape)}, got {tuple(out.shape)}")


def _rotate_numpy(x: np.ndarray, cos: np.ndarray, sin: np.ndarray, layout: str,
                  out: np.ndarray | None = None) -> np.ndarray:
    """Numpy kernel of :func:`apply_rope`; ``cos`` and ``sin`` have shape ``(seq, d/2)``."""
    work = np.float64 if x.dtype == np.float64 else np.float32
    if layout == "interleaved":  # each pair (2j, 2j+1) is the complex number x_2j + i x_2j+1
        as_complex = np.complex128 if work == np.float64 else np.complex64
        z, rotation = np.ascontiguousarray(x, dtype=work).view(as_complex), (cos + 1j * sin).astype(as_complex)
        if out is not None and out.dtype == work and out.flags.c_contiguous:
            np.multiply(z, rotation, out=out.view(as_complex))  # one pass, no allocation
            return out
        result = (z * rotation).view(work)
    else:  # pairs (j, j + d/2): x_a c - x_b s and x_b c + x_a s
        result = _rotate_halves(np.ascontiguousarray(x, dtype=work), cos.astype(work, copy=False),
                                sin.astype(work, copy=False), out)  # the tables are only read
        if result is out:
            return out
    if out is None:
        return result.astype(x.dtype, copy=False)
    out[...] = result
    return out


def _rotate_halves(x: np.ndarray, cos: np.ndarray, sin: np.ndarray, out: np.ndarray | None) -> np.ndarray:
    """Half-layout rotation of the contiguous ``x``, into ``out`` where it can be written directly (else a new
    array): by the compiled one-pass kernel of :mod:`posenc._half_kernel` where it was built, which may write
    into ``x`` itself, else by numpy's passes."""
    compiled = _half_kernel.COMPILED
    direct = out is not None and out.dtype == x.dtype and out.flags.c_contiguous and (
        not np.may_share_memory(out, x) or (compiled and out.ctypes.data == x.ctypes.data))
    target = out if direct else np.empty(x.shape, x.dtype)
    return (_half_kernel.rotate_halves if compiled else _rotate_halves_numpy)(x, cos, sin, target)


def _rotate_halves_numpy(x: np.ndarray, cos: np.ndarray, sin: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Half-layout rotation into ``out`` (which must not overlap ``x``): ``out_a = x_a c - x_b s``,
    ``out_b = x_b c + x_a s``, with one half-size temporary."""
    half = x.shape[-1] // 2
    xa, xb, oa, ob = x[..., :half], x[..., half:], out[..., :half], out[..., half:]
    product = np.multiply(xb, sin)
    np.multiply(xa, cos, out=oa)
    oa -= product
    np.multiply(xb, cos, out=ob)
    ob += np.multiply(xa, sin, out=product)
    return out


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
    torch_input = checks.rotatable(x, who)
    theta = checks.real_vector(frequencies, "frequencies", who)
    if 2 * theta.size != x.shape[-1]:
        raise ValueError(f"{who}: frequencies must have d/2 = {x.shape[-1] // 2} entries for d={x.shape[-1]}, "
                         f"got {theta.size}")
    positions = checks.positions(positions, x.shape[-2], who)
    pairs = [apply_rope(x[..., 2 * j:2 * j + 2], positions * theta_j) for j, theta_j in enumerate(theta)]
    return _join(pairs, torch_input)


def _join(parts, torch_input: bool):
    """Concatenate pieces of heads along the last axis, as torch tensors or as numpy arrays."""
    if torch_input:
        import torch

        return torch.cat(parts, dim=-1)
    return np.concatenate(parts, axis=-1)
