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

from ._arrays import as_positions, check_even_dimension
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
    angles = rotation_angles([m], d, base)[0]
    c, s = np.cos(angles), np.sin(angles)
    theta_m = np.zeros((d, d))
    even, odd = np.arange(0, d, 2), np.arange(1, d, 2)
    theta_m[even, even], theta_m[even, odd] = c, -s
    theta_m[odd, even], theta_m[odd, odd] = s, c
    return theta_m


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


def apply_rope(x, positions=None, *, base: float = 10000.0, layout: str = "interleaved"):
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

    Returns
    -------
    Same kind (numpy or torch), shape and dtype as ``x``. For pair :math:`(x_a, x_b)` and angle
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
    if type(x).__module__.startswith("torch"):
        from .torch_rope import apply_rope_torch

        return apply_rope_torch(x, key, layout)
    return _apply_rope_numpy(np.asarray(x), *cos_sin_table(*key), layout)


@lru_cache(maxsize=32)
def cos_sin_table(positions: bytes, d: int, base: float) -> tuple[np.ndarray, np.ndarray]:
    r""":math:`\cos(m\theta_j)` and :math:`\sin(m\theta_j)` in float64, shape ``(seq, d/2)``, for the
    float64 ``positions`` given as bytes (hashable, so that repeated calls reuse the table, as a model
    reuses its precomputed rotary cache). The arrays are read-only."""
    angles = rotation_angles(np.frombuffer(positions, dtype=np.float64), d, base)
    cos, sin = np.cos(angles), np.sin(angles)
    cos.flags.writeable = sin.flags.writeable = False
    return cos, sin


def _apply_rope_numpy(x: np.ndarray, cos: np.ndarray, sin: np.ndarray, layout: str) -> np.ndarray:
    """Numpy kernel of :func:`apply_rope`; ``cos`` and ``sin`` have shape ``(seq, d/2)``."""
    if not np.issubdtype(x.dtype, np.floating):
        raise TypeError(f"apply_rope: x must hold floating-point numbers, got dtype {x.dtype} (try x.astype(float))")
    work = np.float64 if x.dtype == np.float64 else np.float32
    if layout == "interleaved":  # each pair (2j, 2j+1) is the complex number x_2j + i x_2j+1
        z = np.ascontiguousarray(x, dtype=work).view(np.complex128 if work == np.float64 else np.complex64)
        rotated = (z * (cos + 1j * sin).astype(z.dtype)).view(work)
        return rotated.astype(x.dtype, copy=False)
    half = x.shape[-1] // 2
    xa, xb = x[..., :half].astype(work), x[..., half:].astype(work)
    cos, sin = cos.astype(work), sin.astype(work)
    return np.concatenate([xa * cos - xb * sin, xa * sin + xb * cos], axis=-1).astype(x.dtype, copy=False)
