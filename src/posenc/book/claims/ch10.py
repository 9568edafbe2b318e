"""The claims checked in chapter 10, *The family*

Shaw's clipped offsets, Transformer-XL, T5's buckets, ALiBi, xPos, NoPE's causal mask, partial and multi-axis RoPE,
and tensor2tensor's table.
"""

from __future__ import annotations

import numpy as np

from posenc import attention as att
from posenc import sinusoidal
from posenc.alibi import alibi_bias, alibi_slopes
from posenc.relative import offsets, shaw_scores, t5_bias, t5_bucket, transformer_xl_terms
from posenc.rotary import apply_rope, interleaved_to_half, rope_matrix
from posenc.rotary_axes import axial_rope, grid_offset_deviation, grid_positions, mrope, partial_rope
from posenc.scores import toeplitz_deviation
from posenc.tensor2tensor import timing_frequencies, timing_signal
from posenc.xpos import xpos, xpos_zeta

from .result import ClaimResult, angle_tolerance, claim_result


def shaw_repeated_token_toeplitz(n: int = 12, d: int = 8, max_offset: int = 3, seed: int = 0) -> ClaimResult:
    """Shaw et al.'s scores of one repeated token are Toeplitz, and beyond the clipping distance ``c`` every
    entry on one side of the diagonal is the same (``S[m, n] = S[m, m + c]`` for ``n >= m + c``, likewise
    below); the deviation is the larger of the two departures."""
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((2, d))
    table = rng.standard_normal((2 * max_offset + 1, d))
    s = shaw_scores(np.tile(q, (n, 1)), np.tile(k, (n, 1)), table)
    offset = offsets(n)
    above, below = s[offset >= max_offset], s[offset <= -max_offset]
    spread = max(np.ptp(above) if above.size else 0.0, np.ptp(below) if below.size else 0.0)
    return claim_result(f"Shaw, c={max_offset}: repeated-token scores Toeplitz and constant beyond c",
                        [toeplitz_deviation(s), spread])


def shaw_term_toeplitz(term: str = "position", n: int = 12, d: int = 8, max_offset: int = 3, seed: int = 0,
                       repeated: bool = False) -> ClaimResult:
    r"""One term of Shaw et al.'s scores as a matrix has constant diagonals: the content term
    :math:`q_m^\top k_n/\sqrt d` (``term="content"``) or the position term
    :math:`q_m^\top a_{\operatorname{clip}(n-m,-c,c)}/\sqrt d` (``term="position"``). It holds for a repeated
    token (``repeated=True``); for distinct random tokens it fails for both terms, since along a diagonal the
    query changes, and the key too in the content term. The deviation is :func:`toeplitz_deviation`."""
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((2, 1 if repeated else n, d))
    q, k = np.broadcast_to(q, (n, d)), np.broadcast_to(k, (n, d))
    table = rng.standard_normal((2 * max_offset + 1, d))
    keys_and_tables = {"content": (k, np.zeros_like(table)), "position": (np.zeros_like(k), table)}
    if term not in keys_and_tables:
        raise ValueError(f"shaw_term_toeplitz: term must be 'content' or 'position', got {term!r}")
    s = shaw_scores(q, *keys_and_tables[term])
    tokens = "one repeated token" if repeated else "distinct tokens"
    return claim_result(f"Shaw, {tokens}: the {term} term has constant diagonals", toeplitz_deviation(s))


def _absolute_scores(x, w_q, w_k, base):
    """Scores of added sinusoidal positions, (W_Q (x_m + PE(m)))^T (W_K (x_n + PE(n))), unscaled."""
    e = x + sinusoidal.position_vectors(np.arange(len(x)), x.shape[1], base)
    return (e @ w_q.T) @ (e @ w_k.T).T


def transformer_xl_shift_invariant(n: int = 8, d: int = 8, d_model: int = 16, shift: int = 5, seed: int = 0,
                                   scheme: str = "transformer-xl") -> ClaimResult:
    """The same tokens moved ``shift`` positions later (other tokens put in front) get the same scores:
    Transformer-XL's four terms depend on positions only through ``n - m``. With ``scheme="absolute"`` the
    check runs on added sinusoidal positions (the expansion Transformer-XL starts from), where it fails."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d_model))
    before = np.vstack([rng.standard_normal((shift, d_model)), x])
    w_q, w_ke, w_kr = (rng.standard_normal((d, d_model)) / np.sqrt(d_model) for _ in range(3))
    u, v = rng.standard_normal((2, d))

    def scores_of(tokens):
        if scheme == "absolute":
            return _absolute_scores(tokens, w_q, w_ke, 10000.0)
        return sum(transformer_xl_terms(tokens, w_q, w_ke, w_kr, u, v).values())

    return claim_result(f"{scheme}: scores unchanged when the tokens move {shift} positions later",
                        scores_of(before)[shift:, shift:] - scores_of(x), 1e-12 * (1 + n + shift))


def absolute_expansion_counterexample(d_model: int = 16, base: float = 10000.0) -> ClaimResult:
    r"""The expansion of added absolute positions is not offset-only: with tokens :math:`x = 0` and
    :math:`W_Q = W_K = e_0^\top` (queries and keys of width one), the score is
    :math:`\mathrm{PE}(m)_0\,\mathrm{PE}(n)_0 = \sin(m\theta_0)\sin(n\theta_0)`, :math:`\theta_0 = 1`: 0 at
    :math:`m = n = 0` and :math:`\sin^2 1` at :math:`m = n = 1`, one offset and two scores. The deviation compares the
    scores of positions 0 and 1, computed from the expansion, with that product, and
    :math:`s_{11} - s_{00}` with :math:`\sin^2 1`."""
    first = np.eye(1, d_model)  # e_0^T
    s = _absolute_scores(np.zeros((2, d_model)), first, first, base)
    sines = np.sin(np.arange(2.0))
    return claim_result(f"added absolute positions, x = 0, W_Q = W_K = e_0^T: s_00 = {s[0, 0]:.3f}, "
                        f"s_11 = {s[1, 1]:.3f} = sin^2 1",
                        [np.max(np.abs(s - np.outer(sines, sines))), s[1, 1] - s[0, 0] - np.sin(1.0) ** 2])


def t5_bias_toeplitz(n: int = 160, num_buckets: int = 32, max_distance: int = 128, bidirectional: bool = True,
                     seed: int = 0, bucket: str = "offset") -> ClaimResult:
    """T5's bias ``B[m, n] = b[bucket(n - m)]`` (random ``b``) has constant diagonals. With
    ``bucket="positions"`` the check runs on ``bucket(n) - bucket(m)``, the positions bucketed first, which is
    not a function of ``n - m`` (the buckets are not evenly spaced)."""
    options = {"bidirectional": bidirectional, "num_buckets": num_buckets, "max_distance": max_distance}
    if bucket == "positions":
        first = t5_bucket(-np.arange(n), **options)  # each position bucketed as its distance from the start
        matrix = np.subtract.outer(first, first).T.astype(np.float64)
    else:
        matrix = t5_bias(n, np.random.default_rng(seed).standard_normal(num_buckets), **options)
    return ClaimResult(f"T5 buckets of the {bucket}, {num_buckets} buckets up to {max_distance}: constant diagonals",
                       toeplitz_deviation(matrix), 0.0)


def t5_bucket_layout(num_buckets: int = 32, max_distance: int = 128) -> dict[str, int]:
    """How T5's bidirectional buckets of the offset ``n - m`` fall on each side of the query: how many offsets
    have a bucket of their own behind it (0, -1, -2, ...) and ahead of it (1, 2, ...), the last bucket on each
    side, and the distance at which that bucket starts; the first bucket of the forward set (``num_buckets // 2``)
    and the first bucket an offset ahead uses (a higher one: offset 0 belongs to the backward set)."""
    options = {"bidirectional": True, "num_buckets": num_buckets, "max_distance": max_distance}
    distance = np.arange(4 * max_distance + 1)
    sides = {"behind": t5_bucket(-distance, **options), "ahead": t5_bucket(distance[1:], **options)}
    first = {"behind": 0, "ahead": 1}
    layout = {}
    for side, buckets in sides.items():
        _, counts = np.unique(buckets, return_counts=True)
        layout[f"exact {side}"] = int(np.sum(counts == 1))
        layout[f"last {side}"] = int(buckets[-1])
        layout[f"last {side} starts"] = int(first[side] + np.argmax(buckets == buckets[-1]))
    layout["ahead set starts"] = num_buckets // 2
    layout["first ahead used"] = int(sides["ahead"].min())
    return layout


def alibi_added_slopes_interleave(n_heads: int) -> ClaimResult:
    """For ``H`` heads not a power of two, the slopes ALiBi adds to those of the largest power of two ``H' < H``
    fall in place: the first lies above the largest base slope, each later one strictly between two neighbouring
    base slopes. The deviation counts the added slopes out of place (none for a power of two)."""
    slopes = alibi_slopes(n_heads)
    base_heads = 2 ** (int(n_heads).bit_length() - 1)  # H'
    base, added = slopes[:base_heads], slopes[base_heads:]
    between = [np.any((base[1:] < slope) & (slope < base[:-1])) for slope in added[1:]]
    misplaced = int(added.size > 0 and added[0] <= base.max()) + between.count(False)
    return ClaimResult(f"ALiBi, {n_heads} heads: the first added slope above the base slopes, the rest between them",
                       float(misplaced), 0.0)


def alibi_bias_toeplitz(n: int = 16, n_heads: int = 8) -> ClaimResult:
    """Every head's ALiBi bias matrix has constant diagonals (exactly: each entry is -slope * |m - n|)."""
    bias = alibi_bias(n, alibi_slopes(n_heads))
    return ClaimResult(f"ALiBi bias, {n_heads} heads: B[m, n] = B[m+1, n+1]",
                       max(toeplitz_deviation(b) for b in bias), 0.0)


def alibi_head_reversal(n: int = 8, d: int = 8, n_heads: int = 8, seed: int = 0, causal: bool = False) -> ClaimResult:
    r"""ALiBi cannot tell a sequence from its reverse without a mask. For the reversal :math:`P` (``n - 1 - i``
    in place of ``i``), every head's bias :math:`B = -\mu|n - m|` satisfies :math:`PBP^\top = B`, so one head with
    random weights and the bias of head 1 gives :math:`\operatorname{Attention}(PX) = P\operatorname{Attention}(X)`.
    With ``causal=True`` the head is masked and the second equation fails in general; the deviation is the larger
    of the two departures."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d))
    w_q, w_k, w_v = (rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(3))
    bias = alibi_bias(n, alibi_slopes(n_heads))
    reverse = np.arange(n)[::-1]
    visible = att.causal_mask(n) if causal else np.ones((n, n), dtype=bool)

    def head(tokens):
        scores = (tokens @ w_q) @ (tokens @ w_k).T / np.sqrt(d) + bias[0]
        return att.softmax(np.where(visible, scores, -np.inf)) @ (tokens @ w_v)

    kind = "causal" if causal else "full"
    return claim_result(f"ALiBi, {kind} head, P the reversal: P B P^T = B and Attention(PX) = P Attention(X)",
                        [np.max(np.abs(bias[:, reverse][:, :, reverse] - bias)),
                         np.max(np.abs(head(x[reverse]) - head(x)[reverse]))])


def alibi_slopes_follow_the_rule(n_heads: int) -> ClaimResult:
    """ALiBi's slopes for ``H`` heads as the paper's code chooses them: the geometric sequence
    ``2^(-8 tau/H)``, tau = 1..H, when H is a power of two; otherwise the sequence of the largest power of two
    ``H' < H``, followed by the first ``H - H'`` odd-numbered slopes ``2^(-8 tau/(2H'))``, tau = 1, 3, 5, ..., of
    2H' heads: the first, ``2^(-4/H')``, lies above the largest base slope ``2^(-8/H')``, the rest between base
    slopes. The rule is written out here and compared with ``alibi_slopes`` exactly."""
    base_heads = 2 ** (int(n_heads).bit_length() - 1)  # H'
    rule = ([2.0 ** (-8 * tau / base_heads) for tau in range(1, base_heads + 1)]
            + [2.0 ** (-8 * tau / (2 * base_heads)) for tau in range(1, 2 * (n_heads - base_heads), 2)])
    rest = f", then odd tau of 2^(-8 tau/{2 * base_heads})" if base_heads < n_heads else ""
    return claim_result(f"ALiBi, {n_heads} heads: slopes 2^(-8 tau/{base_heads}){rest}",
                        alibi_slopes(n_heads) - np.array(rule), 0.0)


def xpos_scores_depend_on_offset(m: float, n: float, shift: float, d: int = 64, scale_base: float = 512.0,
                                 seed: int = 0, key_role: str = "key", gamma: float = 0.4) -> ClaimResult:
    r"""The xPos score of ``q`` at ``m`` and ``k`` at ``n`` equals the score at ``m + shift``, ``n + shift``, and
    equals :math:`\sum_j \zeta_j^{(m-n)/\kappa}\,q_{[j]}^\top R((n-m)\theta_j) k_{[j]}` (relative deviations),
    :math:`\kappa` the ``scale_base``, :math:`\zeta_j` made with ``gamma``. With ``key_role="query"`` the keys are
    scaled like the queries, by :math:`\zeta^{+n/\kappa}`, and the check fails."""
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((2, 1, d))

    def score(a: float, b: float) -> float:
        options = {"scale_base": scale_base, "gamma": gamma}
        return float(xpos(q, [a], **options)[0] @ xpos(k, [b], role=key_role, **options)[0])

    factors = np.repeat(xpos_zeta(d, gamma) ** ((m - n) / scale_base), 2)
    relative = float(q[0] @ (rope_matrix(n - m, d) * factors[:, None]) @ k[0])
    size = abs(relative) + 1.0
    sign = "-" if key_role == "key" else "+"
    return claim_result(f"xPos, keys scaled by zeta^({sign}n/kappa): score(m, n) = score(m + k, n + k) "
                        "= sum_j zeta_j^((m-n)/kappa) q_j^T R((n-m) theta_j) k_j",
                        np.array([score(m, n) - score(m + shift, n + shift), score(m, n) - relative]) / size,
                        float(angle_tolerance(m, n, shift) * np.sqrt(d)))


def causal_permutation_equivariance(n: int = 6, d: int = 8, seed: int = 0, causal: bool = True) -> ClaimResult:
    """Attention(PX) = P Attention(X) for one head with random weights and a random permutation, with a causal
    mask (``causal=True``, where it fails: the mask is tied to the positions) or without one (where it holds)."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d))
    w_q, w_k, w_v = (rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(3))
    order = rng.permutation(n)
    while np.array_equal(order, np.arange(n)) and n > 1:
        order = rng.permutation(n)
    mask = att.causal_mask(n) if causal else None

    def head(tokens):
        return att.attention(tokens @ w_q, tokens @ w_k, tokens @ w_v, mask)

    kind = "causal" if causal else "full"
    return claim_result(f"{kind} head: Attention(PX) = P Attention(X)", head(x[order]) - head(x)[order])


def causal_uniform_attention_averages(n: int = 8, d: int = 4, seed: int = 0) -> ClaimResult:
    """With equal scores (W_Q = 0) a causal head outputs at position m the plain average of the values
    v_0, ..., v_m: weight 1/(m + 1) on each, the same for every content."""
    rng = np.random.default_rng(seed)
    x, w_k, w_v = rng.standard_normal((n, d)), rng.standard_normal((d, d)), rng.standard_normal((d, d))
    out = att.attention(x @ np.zeros((d, d)), x @ w_k, x @ w_v, att.causal_mask(n))
    averages = np.cumsum(x @ w_v, axis=0) / np.arange(1, n + 1)[:, None]
    return claim_result("causal head with equal scores: output m = (v_0 + ... + v_m)/(m + 1)", out - averages)


def partial_rotary_depends_on_offset(m: float, n: float, shift: float, d: int = 64, rotary_fraction: float = 0.25,
                                     seed: int = 0) -> ClaimResult:
    r"""The partial-RoPE score of ``q`` at ``m`` and ``k`` at ``n`` equals the score at ``m + shift``,
    ``n + shift``, and equals :math:`(q_{:r}^\top\Theta^{(r)}_{n-m}k_{:r} + q_{r:}^\top k_{r:})/\sqrt d` with
    :math:`r = \lfloor d\cdot\text{rotary\_fraction}\rfloor` (the right-hand side from ``rope_matrix``)."""
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((1, d)), rng.standard_normal((1, d))
    r = int(d * rotary_fraction)

    def score(a: float, b: float) -> float:
        q_a, k_b = (partial_rope(v, [p], rotary_fraction=rotary_fraction)[0] for v, p in ((q, a), (k, b)))
        return float(q_a @ k_b) / np.sqrt(d)

    relative = float(q[0, :r] @ rope_matrix(n - m, r) @ k[0, :r] + q[0, r:] @ k[0, r:]) / np.sqrt(d)
    return claim_result(f"partial RoPE, {r} of {d} dims turned: score(m, n) = score(m + k, n + k) "
                        "= q_r^T Theta_(n-m) k_r + q_rest . k_rest",
                        [score(m, n) - score(m + shift, n + shift), score(m, n) - relative],
                        np.sqrt(d) * angle_tolerance(m, n, shift))


def partial_rotary_layouts_agree(n: int = 12, d: int = 64, rotary_fraction: float = 0.25,
                                  seed: int = 0) -> ClaimResult:
    r"""Partial RoPE in the half layout on vectors whose :math:`r` rotated coordinates are reordered by
    ``interleaved_to_half(r)`` (the rest left in place), :math:`P`, is the interleaved result reordered the same
    way: :math:`\operatorname{rope}_{\text{half}}(Px) = P\operatorname{rope}_{\text{interleaved}}(x)`, for
    random :math:`x` at positions 0 to ``n - 1``; so the half layout's scores of :math:`Pq`, :math:`Pk` are the
    interleaved scores of :math:`q`, :math:`k`. The deviation also compares those two score matrices."""
    r = int(d * rotary_fraction)
    p = np.r_[interleaved_to_half(r), np.arange(r, d)]
    q, k = np.random.default_rng(seed).standard_normal((2, n, d))

    def turned(x, layout):
        return partial_rope(x, rotary_fraction=rotary_fraction, layout=layout)

    half_scores = turned(q[:, p], "half") @ turned(k[:, p], "half").T
    return claim_result(f"partial RoPE, {r} of {d} dims: half(P x) = P interleaved(x), P = interleaved_to_half({r})",
                        [np.max(np.abs(turned(q[:, p], "half") - turned(q, "interleaved")[:, p])),
                         np.max(np.abs(half_scores - turned(q, "interleaved") @ turned(k, "interleaved").T))],
                        angle_tolerance(n) * d)


def axial_scores_depend_on_2d_offset(d: int = 64, grid: int = 8, seed: int = 0) -> ClaimResult:
    """Over every pair of patches of a ``grid x grid`` image, the 2-D RoPE score of one query and one key
    vector depends only on the 2-D offset: the deviation is the largest distance of a score from the mean
    score of its offset (:func:`posenc.rotary_axes.grid_offset_deviation`)."""
    q, k = np.random.default_rng(seed).standard_normal((2, d))
    rows, cols = grid_positions(grid, grid)
    queries, keys = (axial_rope(np.tile(v, (grid * grid, 1)), rows, cols) for v in (q, k))
    return ClaimResult(f"2-D RoPE, {grid}x{grid} patches: score depends only on (n1 - m1, n2 - m2)",
                       grid_offset_deviation(queries @ keys.T / np.sqrt(d), rows, cols),
                       np.sqrt(d) * angle_tolerance(grid, grid))


def qwen2_vl_vision_rope(x, rows, cols, base: float = 10000.0) -> np.ndarray:
    r"""Qwen2-VL's vision rotation as transformers' code computes it, written out in numpy: the angles
    :math:`(r\theta_0, \ldots, r\theta_{d/4-1}, c\theta_0, \ldots, c\theta_{d/4-1})` of the row :math:`r` and
    the column :math:`c` over the ladder of width :math:`d/2`, repeated to width :math:`d` and applied with
    ``rotate_half``: one half-layout RoPE over the whole head, pairs :math:`(i, i + d/2)`, the first :math:`d/4`
    of them turned by the row. ``x`` has shape ``(seq, d)``, ``d`` a multiple of 4."""
    d = x.shape[-1]
    theta = sinusoidal.frequencies(d // 2, base)
    angles = np.tile(np.hstack([np.outer(rows, theta), np.outer(cols, theta)]), 2)  # (seq, d)
    rotated_half = np.hstack([-x[:, d // 2:], x[:, :d // 2]])
    return x * np.cos(angles) + rotated_half * np.sin(angles)


def rope_vit_axial(x, rows, cols, base: float = 100.0) -> np.ndarray:
    r"""RoPE-ViT's axial rotation (Heo et al.'s ``compute_axial_cis`` and ``apply_rotary_emb``), written out:
    coordinates :math:`(2i, 2i + 1)` read as one complex number and multiplied by :math:`e^{i\phi_i}`, with the
    angles :math:`\phi` of the column :math:`c` first, :math:`(c\theta_0, \ldots, c\theta_{d/4-1})`, then those of
    the row, over the ladder of width :math:`d/2` and base 100 by default. ``x`` has shape ``(seq, d)``."""
    theta = sinusoidal.frequencies(x.shape[-1] // 2, base)
    angles = np.hstack([np.outer(cols, theta), np.outer(rows, theta)])  # (seq, d/2)
    z = (x[:, 0::2] + 1j * x[:, 1::2]) * np.exp(1j * angles)
    return np.stack([z.real, z.imag], axis=-1).reshape(x.shape)


def _swap_halves(d: int) -> np.ndarray:
    """The index array that puts the second half of ``d`` coordinates before the first."""
    return np.r_[d // 2:d, :d // 2]


AXIAL_CODES = {"Qwen2-VL": (qwen2_vl_vision_rope, interleaved_to_half, 10000.0),
               "RoPE-ViT": (rope_vit_axial, _swap_halves, 100.0)}  # the code's rotation, P, its base


def axial_code_is_permuted_axial_rope(code: str = "Qwen2-VL", d: int = 80, rows: int = 4, cols: int = 5,
                                      seed: int = 0) -> ClaimResult:
    r"""A code's 2-D RoPE is :func:`posenc.rotary_axes.axial_rope` after a fixed permutation :math:`P` of the
    coordinates: :math:`\operatorname{code}(Px) = P\operatorname{axial\_rope}(x)` for random :math:`x` at every
    patch of a ``rows x cols`` image, with the code's base. Qwen2-VL's vision encoder
    (:func:`qwen2_vl_vision_rope`) needs :math:`P` = ``interleaved_to_half(d)``, RoPE-ViT (:func:`rope_vit_axial`)
    the swap of the two halves. Scores of :math:`Pq` and :math:`Pk` are then those of :math:`q` and :math:`k`, as
    when :math:`W_Q` and :math:`W_K` are permuted."""
    if code not in AXIAL_CODES:
        raise ValueError(f"axial_code_is_permuted_axial_rope: code must be one of {sorted(AXIAL_CODES)}, got {code!r}")
    rotation, permutation, base = AXIAL_CODES[code]
    patch_rows, patch_cols = grid_positions(rows, cols)
    x = np.random.default_rng(seed).standard_normal((rows * cols, d))
    p = permutation(d)
    return claim_result(f"{code}'s 2-D RoPE of P x = P axial_rope(x), base {base:g}, d = {d}",
                        rotation(x[:, p], patch_rows, patch_cols, base)
                        - axial_rope(x, patch_rows, patch_cols, base=base)[:, p],
                        np.sqrt(d) * angle_tolerance(rows, cols))


def repeated_patch_scores(rows: int, cols: int, d: int = 64, sections=None, seed: int = 0) -> np.ndarray:
    r"""The scores of one query and one key vector placed at every patch of a ``rows x cols`` image, the
    patches in reading order (row after row), shape ``(rows * cols, rows * cols)``.

    With ``sections=None`` the patches are turned by 2-D RoPE (:func:`posenc.rotary_axes.axial_rope`, ``d`` a
    multiple of 4); with three section sizes by M-RoPE with the image's ids from :func:`mrope_ids` (``d`` twice
    their sum). Entry :math:`(m, n)` is :math:`s_{mn}` of the query's patch :math:`m = (m_1, m_2)` and the
    key's patch :math:`n = (n_1, n_2)`, divided by :math:`\sqrt d`.
    """
    q, k = np.random.default_rng(seed).standard_normal((2, d))
    patch_rows, patch_cols = grid_positions(rows, cols)
    if sections is None:
        turned = [axial_rope(np.tile(v, (rows * cols, 1)), patch_rows, patch_cols) for v in (q, k)]
    else:
        ids = mrope_ids([(rows, cols)])
        turned = [mrope(np.tile(v, (rows * cols, 1)), ids, sections) for v in (q, k)]
    return turned[0] @ turned[1].T / np.sqrt(d)


def patch_scores_block_toeplitz(rows: int = 4, cols: int = 5, d: int = 64, sections=None,
                                seed: int = 0) -> ClaimResult:
    r""":func:`repeated_patch_scores` is block-Toeplitz with Toeplitz blocks: cut into ``cols x cols`` blocks,
    block :math:`(m_1, n_1)` (queries of patch row :math:`m_1`, keys of row :math:`n_1`) equals block
    :math:`(m_1 + 1, n_1 + 1)`, and every block has constant diagonals. The deviation is the larger of the
    two departures; 2-D RoPE with ``sections=None``, M-RoPE on the ids of one image otherwise."""
    s = repeated_patch_scores(rows, cols, d, sections, seed)
    blocks = s.reshape(rows, cols, rows, cols).swapaxes(1, 2)  # blocks[m1, n1]: query row m1, key row n1
    across = np.max(np.abs(blocks[1:, 1:] - blocks[:-1, :-1]), initial=0.0)
    within = max(toeplitz_deviation(block) for block in blocks.reshape(-1, cols, cols))
    scheme = "2-D RoPE" if sections is None else f"M-RoPE {tuple(sections)}"
    return claim_result(f"{scheme}, {rows}x{cols} patches in reading order: block-Toeplitz, Toeplitz blocks",
                        [across, within], np.sqrt(d) * angle_tolerance(rows, cols))


def mrope_on_text_is_rope(seq: int = 16, d: int = 64, sections=(8, 12, 12), seed: int = 0,
                          positions=None) -> ClaimResult:
    """M-RoPE with three equal ids per token (text), ``p(m)`` from ``positions`` (default ``0, ..., seq - 1``),
    is ``apply_rope`` at the positions ``p(m)``, bit for bit (tolerance 0)."""
    positions = np.arange(seq) if positions is None else np.asarray(positions)
    x = np.random.default_rng(seed).standard_normal((len(positions), d))
    ids = np.tile(positions, (3, 1))
    where = "" if np.array_equal(positions, np.arange(len(positions))) else f" {positions.tolist()}"
    return claim_result(f"M-RoPE with sections {tuple(sections)} and equal ids{where} = RoPE at those ids",
                        mrope(x, ids, sections) - apply_rope(x, positions), 0.0)


def mrope_ids(segments) -> np.ndarray:
    """Qwen2-VL's three ids (time, height, width) for a sequence of text and images, shape ``(3, seq)``.

    ``segments`` lists the parts in order: an int is that many text tokens, a pair ``(rows, cols)`` an
    image of that many patches in reading order. A text token's three ids are equal, one more than the
    largest id before it. An image whose first id is ``t0`` gives every patch the time id ``t0`` and the
    height and width ids ``t0 + row`` and ``t0 + col``; the text after it resumes at its largest id + 1.
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


def timing_signal_is_half_layout(n_positions: int = 64, d: int = 64, max_timescale: float = 10000.0) -> ClaimResult:
    """tensor2tensor's sin | cos table is the interleaved table of the same ladder with its coordinates
    permuted by ``interleaved_to_half``: coordinates j and j + d/2 hold the sine and the cosine of one angle."""
    angles = np.outer(np.arange(n_positions), timing_frequencies(d, max_timescale))
    interleaved = np.empty((n_positions, d))
    interleaved[:, 0::2], interleaved[:, 1::2] = np.sin(angles), np.cos(angles)
    return claim_result(f"timing signal = interleaved table[:, interleaved_to_half({d})]",
                        timing_signal(n_positions, d, max_timescale) - interleaved[:, interleaved_to_half(d)])
