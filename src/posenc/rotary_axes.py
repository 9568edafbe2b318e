r"""Rotary embeddings over part of the head or over several position axes: partial rotary (GPT-J, GPT-NeoX),
axial (2-D) RoPE for image patches, and M-RoPE (Qwen2-VL, Qwen3-VL) with three ids per token.

Each keeps the rotation of :mod:`posenc.rotary` and changes what is rotated, or by which position; each is
built from :func:`posenc.rotary.apply_rope` on slices of the head, so each takes and returns what it does
(numpy or torch, shape ``(..., seq, d)``, the dtype kept).
"""

from __future__ import annotations

import numpy as np

from . import validation
from .rotary import LAYOUTS, _join, _rope


def partial_rope(x, positions=None, *, rotary_fraction: float, base: float = 10000.0, layout: str = "interleaved"):
    r"""RoPE on the first :math:`r = \lfloor d \cdot \text{rotary\_fraction} \rfloor` dimensions; the rest pass through.

    With :math:`x = (x_{:r}, x_{r:})` the result at position :math:`m` is
    :math:`(\Theta^{(r)}_m x_{:r},\; x_{r:})`, where :math:`\Theta^{(r)}_m` is RoPE with a ladder of width
    :math:`r`, :math:`\theta_j = \text{base}^{-2j/r}`, as GPT-NeoX builds it over its ``rotary_ndims``
    (``int(head_size * rotary_pct)``). The score of a query at :math:`m` with a key at :math:`n` is then

    .. math:: q_{:r}^\top \Theta^{(r)}_{n-m} k_{:r} + q_{r:}^\top k_{r:} ,

    a function of :math:`n - m` whose second term does not see the positions at all. ``rotary_fraction`` is in
    :math:`(0, 1]` and :math:`r` must come out even and at least 2; ``positions``, ``base`` and ``layout`` are
    as for :func:`posenc.rotary.apply_rope`, over the :math:`r` rotated dimensions (GPT-NeoX pairs them in the
    half layout, GPT-J in the interleaved one).

    >>> x = np.ones((2, 4))
    >>> np.round(partial_rope(x, rotary_fraction=0.5), 4)   # r = 2: one pair turns, theta_0 = 1 radian
    array([[ 1.    ,  1.    ,  1.    ,  1.    ],
           [-0.3012,  1.3818,  1.    ,  1.    ]])
    """
    who = "partial_rope"
    torch_input = validation.rotatable(x, who)
    d = x.shape[-1]
    fraction = validation.real(rotary_fraction, "rotary_fraction", who, above=0.0)
    if fraction > 1.0:
        raise ValueError(f"{who}: rotary_fraction must be at most 1, got rotary_fraction={fraction:g}")
    r = int(d * fraction)
    if r < 2 or r % 2:
        raise ValueError(f"{who}: the rotated width r = int(d * rotary_fraction) must be even and at least 2, "
                         f"got r={r} (d={d}, rotary_fraction={fraction:g})")
    positions = validation.positions(positions, x.shape[-2], who)
    base, layout = validation.base(base, who), validation.option(layout, LAYOUTS, "layout", who)
    return _join([_rope(x[..., :r], positions, base, layout), x[..., r:]], torch_input)


def axial_rope(x, rows, cols, *, base: float = 10000.0):
    r"""2-D RoPE for image patches: the first half of the head turned by the row, the second by the column.

    With :math:`x = (x_a, x_b)`, two halves of width :math:`d/2`, the patch in row :math:`r`, column
    :math:`c` becomes :math:`(\Theta^{(d/2)}_r x_a,\; \Theta^{(d/2)}_c x_b)`: interleaved pairs and the ladder
    :math:`\theta_j = \text{base}^{-2j/(d/2)}` in each half. The score of patch :math:`(r_1, c_1)` with
    patch :math:`(r_2, c_2)` is

    .. math:: q_a^\top \Theta^{(d/2)}_{r_2 - r_1} k_a + q_b^\top \Theta^{(d/2)}_{c_2 - c_1} k_b ,

    a function of the 2-D offset :math:`(r_2 - r_1, c_2 - c_1)` alone. ``x`` has one row per patch and ``d`` a
    multiple of 4; ``rows`` and ``cols`` give each patch's row and column (:func:`grid_positions` gives them in
    raster order).

    >>> x = np.array([[1.0, 0.0, 1.0, 0.0]])
    >>> np.round(axial_rope(x, rows=[1], cols=[2]), 4)   # theta_0 = 1 in each half: turns of 1 and 2 radians
    array([[ 0.5403,  0.8415, -0.4161,  0.9093]])
    """
    who = "axial_rope"
    torch_input = validation.rotatable(x, who)
    d, seq = x.shape[-1], x.shape[-2]
    if d % 4:
        raise ValueError(f"{who}: last dimension must be a multiple of 4 (two halves of pairs), got d={d}")
    rows, cols = (_axis_positions(values, name, seq, who) for values, name in ((rows, "rows"), (cols, "cols")))
    base, half = validation.base(base, who), d // 2
    return _join([_rope(x[..., :half], rows, base), _rope(x[..., half:], cols, base)], torch_input)


def mrope(x, positions, sections, *, base: float = 10000.0, split: str = "sections"):
    r"""Qwen2-VL's multimodal RoPE: frequency pair :math:`j` turned by the id of its section's axis.

    Every token carries three ids, ``positions[0]`` (time), ``positions[1]`` (height) and ``positions[2]``
    (width), shape ``(3, seq)``. The :math:`d/2` frequency pairs, :math:`\theta_j = \text{base}^{-2j/d}` over the
    whole head, are cut into three consecutive sections of ``sections[0]``, ``sections[1]`` and ``sections[2]``
    pairs; pair :math:`j` of the token at :math:`m` is turned by

    .. math:: p_{a(j)}(m)\,\theta_j, \qquad a(j) = 0, 1, 2 \text{ for the first, second, third section.}

    Pair :math:`j` of a score then depends on :math:`p_{a(j)}(n) - p_{a(j)}(m)`, so a score depends on the
    3-D offset of the ids. For text every token has three equal ids and M-RoPE is
    :func:`posenc.rotary.apply_rope`, bit for bit.

    Pairs are interleaved, :math:`(2j, 2j+1)`, as everywhere in this book. Qwen2-VL's code uses the half
    layout, pairs :math:`(j, j + d/2)`, and the same sectioning over the frequency index :math:`j`
    (``mrope_section = [16, 24, 24]`` for a head of 128): it equals this function on heads permuted by
    :func:`posenc.rotary.interleaved_to_half`. With ``split="interleaved"`` the pairs are dealt to the axes
    in turn, as in Qwen3-VL (:func:`mrope_axes`); the counts per axis stay ``sections`` (three non-negative
    integers adding up to :math:`d/2`).

    >>> x = np.array([[1.0, 0.0, 1.0, 0.0]])
    >>> np.round(mrope(x, [[1], [5], [2]], sections=(1, 0, 1), base=100.0), 4)  # pair 0 by id 1, pair 1 by id 2
    array([[0.5403, 0.8415, 0.9801, 0.1987]])
    """
    who = "mrope"
    torch_input = validation.rotatable(x, who, pairs=True)
    d, seq = x.shape[-1], x.shape[-2]
    positions = validation.real_array(positions, "positions", who, ndim=2)
    if positions.shape != (3, seq):
        raise ValueError(f"{who}: positions must have shape (3, seq) = (3, {seq}) (time, height and width ids), "
                         f"got shape {positions.shape}")
    axes, base = _mrope_axes(sections, split, d, who), validation.base(base, who)
    turned = {axis: _rope(x, positions[axis], base) for axis in set(axes.tolist())}  # x turned by each axis's ids
    return _join([turned[axis][..., 2 * j:2 * j + 2] for j, axis in enumerate(axes)], torch_input)  # pair j


def mrope_axes(sections, d: int, split: str = "sections") -> np.ndarray:
    r"""The axis (0 time, 1 height, 2 width) that turns each of the :math:`d/2` frequency pairs in M-RoPE.

    ``split="sections"`` (Qwen2-VL) gives the first ``sections[0]`` pairs to time, the next ``sections[1]`` to
    height and the last ``sections[2]`` to width. ``split="interleaved"`` (Qwen3-VL's
    ``apply_interleaved_mrope``) deals them in turn: pair :math:`j` goes to height if :math:`j \equiv 1`
    (mod 3) and :math:`j < 3\,\texttt{sections[1]}`, to width if :math:`j \equiv 2` (mod 3) and
    :math:`j < 3\,\texttt{sections[2]}`, and to time otherwise, so that each axis still owns ``sections[a]``
    pairs, spread over the whole ladder.

    >>> mrope_axes((2, 1, 1), 8), mrope_axes((2, 1, 1), 8, split="interleaved")
    (array([0, 0, 1, 2]), array([0, 1, 2, 0]))
    """
    return _mrope_axes(sections, split, validation.even_dimension(d, "mrope_axes"), "mrope_axes")


SPLITS = ("sections", "interleaved")


def _mrope_axes(sections, split: str, d: int, who: str) -> np.ndarray:
    """:func:`mrope_axes` for an even ``d``, checking ``sections`` and ``split`` on behalf of ``who``."""
    sections, split = _sections(sections, d, who), validation.option(split, SPLITS, "split", who)
    if split == "sections":
        return np.repeat(np.arange(3), sections)
    if 3 * sections[1] - 2 >= d // 2 or 3 * sections[2] - 1 >= d // 2:  # the last height and width pairs
        raise ValueError(f"{who}: interleaving needs 3 * sections[1] - 2 and 3 * sections[2] - 1 below d/2 = "
                         f"{d // 2}, got sections {sections}")
    pair = np.arange(d // 2)
    axes = np.zeros(d // 2, dtype=int)
    axes[(pair % 3 == 1) & (pair < 3 * sections[1])] = 1
    axes[(pair % 3 == 2) & (pair < 3 * sections[2])] = 2
    return axes


def grid_positions(height: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """The row and the column of each patch of a ``height x width`` image in raster order, two integer arrays
    of length ``height * width``.

    >>> grid_positions(2, 3)
    (array([0, 0, 0, 1, 1, 1]), array([0, 1, 2, 0, 1, 2]))
    """
    height = validation.integer(height, "height", "grid_positions", minimum=1)
    width = validation.integer(width, "width", "grid_positions", minimum=1)
    rows, cols = np.divmod(np.arange(height * width), width)
    return rows, cols


def mrope_ids(segments) -> np.ndarray:
    """Qwen2-VL's three ids (time, height, width) for a sequence of text and images, shape ``(3, seq)``.

    ``segments`` lists the parts in order: an int is that many text tokens, a pair ``(rows, cols)`` an
    image of that many patches in reading order. A text token's three ids are equal, one more than the
    largest id before it. An image whose first id is ``t0`` gives every patch the time id ``t0`` and the
    height and width ids ``t0 + row`` and ``t0 + col``; the text after it resumes at its largest id + 1.

    >>> mrope_ids([1, (2, 2), 1])
    array([[0, 1, 1, 1, 1, 3],
           [0, 1, 1, 2, 2, 3],
           [0, 1, 2, 1, 2, 3]])
    """
    parts, start = [], 0
    for segment in segments:
        if isinstance(segment, int):
            parts.append(np.tile(start + np.arange(segment), (3, 1)))
        else:
            rows, cols = grid_positions(*segment)
            parts.append(np.stack([np.zeros_like(rows), rows, cols]) + start)
        start = int(parts[-1].max()) + 1
    return np.concatenate(parts, axis=1)


def _axis_positions(values, name: str, length: int, who: str) -> np.ndarray:
    """The positions along one axis (``rows``, ``cols``): required, one finite number per patch."""
    if values is None:
        raise TypeError(f"{who}: {name} must hold real numbers (one per patch), got None")
    return validation.positions(values, length, who, name)


def _sections(sections, d: int, who: str) -> tuple[int, int, int]:
    """``sections`` as three non-negative ints that add up to ``d // 2`` pairs."""
    try:
        values = list(sections)
    except TypeError:
        raise TypeError(f"{who}: sections must be three integers (pairs per axis), got {sections!r}") from None
    if len(values) != 3:
        raise ValueError(f"{who}: sections must be three integers (time, height, width), got {len(values)}: "
                         f"{sections!r}")
    values = tuple(validation.integer(v, f"sections[{i}]", who, minimum=0) for i, v in enumerate(values))
    if sum(values) != d // 2:
        raise ValueError(f"{who}: sections must add up to d/2 = {d // 2} pairs, got {values} (sum {sum(values)})")
    return values

