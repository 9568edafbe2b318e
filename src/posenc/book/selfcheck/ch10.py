"""The self-checks of the exercises of chapter 10, *The family*: one ``check_<answer>`` per answer."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from posenc.alibi import alibi_slopes as _alibi_slopes
from posenc.rotary import apply_rope
from posenc.rotary_axes import axial_rope, mrope, partial_rope

from .checking import as_array, as_number, judge, passed, run_answer, seeded_rng


def check_alibi_slopes(alibi_slopes: Callable) -> None:
    """``alibi_slopes(n_heads)``: ALiBi's head slopes, for powers of two and, by the paper's rule, the rest."""
    cases = [8, 16, 1, 2, 12, 6, 24, 5]
    for n in cases:
        args = (n,)
        got = as_array("alibi_slopes", run_answer("alibi_slopes", alibi_slopes, n), (n,), args)
        expected = _alibi_slopes(n)
        closest = 2 ** int(np.log2(n))
        geometric = 2.0 ** (-8.0 * np.arange(1, n + 1) / n)
        judge("alibi_slopes", args, got, expected, [
            (2.0 ** (-8.0 * np.arange(n) / n), "the first head's slope is 1: k starts at 0.",
             "head k = 1, ..., n gets 2 ** (-8k/n), so every slope is below 1."),
            (geometric, "the plain geometric sequence is used for a head count that is not a power of two.",
             "take the slopes of the largest power of two c below n, then add slopes from 2c heads."),
            (np.r_[_alibi_slopes(closest), _alibi_slopes(2 * closest)[: n - closest]],
             "the extra heads take the first slopes of 2c heads, repeating some of the others.",
             "the extra heads take every other slope of 2c heads, those that fall between the first c."),
            (expected[::-1], "the slopes run the wrong way.", "the first head has the steepest slope."),
        ], "for n a power of two, head k gets 2 ** (-8k/n); otherwise the slopes of the largest power of two "
           "c below n, then every other slope of 2c heads.")
    passed("alibi_slopes", len(cases))


def _halves(x: np.ndarray, row: float, col: float, base: float, layout: str = "interleaved") -> np.ndarray:
    """RoPE of width d/2 on each half of ``x``: the first half at ``row``, the second at ``col``."""
    half = x.shape[-1] // 2
    return np.r_[apply_rope(x[None, :half], [row], base=base, layout=layout)[0],
                 apply_rope(x[None, half:], [col], base=base, layout=layout)[0]]


def check_axial_rope_vector(axial_rope_vector: Callable) -> None:
    """``axial_rope_vector(x, row, col, base)``: 2-D RoPE of one patch, first half by the row, second by the column."""
    rng = seeded_rng("axial_rope_vector")
    cases = [(4, 3, 5, 10000.0), (8, -2, 7, 100.0), (16, 11, 4, 10000.0), (32, 29, 17, 10000.0)]
    for d, row, col, base in cases:
        x = rng.standard_normal(d)
        args = (x, row, col, base)
        got = as_array("axial_rope_vector", run_answer("axial_rope_vector", axial_rope_vector, *args), (d,), args)
        judge("axial_rope_vector", args, got, axial_rope(x[None], [row], [col], base=base)[0], [
            (_halves(x, col, row, base), "the row and the column are swapped.",
             "the first half of x turns by the row, the second by the column."),
            (_halves(x, -row, -col, base), "it turns clockwise.", "check the signs of the sines."),
            (_halves(x, row, col, base ** 0.5), "each half uses the ladder of the whole head.",
             "each half is a RoPE of width d/2: θ_j = base ** (-2j/(d/2))."),
            (mrope(x[None], [[row], [col], [0]], (d // 4, d // 4, 0), base=base)[0],
             "one ladder runs over the whole head: the second half gets its slow end.",
             "each half has its own ladder of width d/2, from θ_0 = 1 down."),
            (_halves(x, row, row, base), "both halves turn by the row.", "the second half turns by the column."),
            (apply_rope(x[None], [row], base=base)[0], "the whole vector turns by the row, as in 1-D RoPE.",
             "split x into two halves, one for each axis."),
            (_halves(x, row, col, base, "half"), "inside each half it pairs the dimensions (j, j + d/4).",
             "pairs are neighbours (2j, 2j+1) in each half."),
        ], "split x into two halves of width d/2; give each half RoPE (pairs (2j, 2j+1), θ_j = base ** (-2j/(d/2))), "
           "the first by the row, the second by the column.")
    passed("axial_rope_vector", len(cases))


def _partial_score(q: np.ndarray, k: np.ndarray, m: float, n: float, turned: slice, base: float) -> float:
    """``q . k`` after RoPE (ladder base ``base`` over the slice's width) of the dimensions ``turned`` only."""
    q_t, k_t = q.copy(), k.copy()
    q_t[turned], k_t[turned] = (apply_rope(v[None, turned], [p], base=base)[0] for v, p in ((q, m), (k, n)))
    return float(q_t @ k_t)


def check_partial_rope_score(partial_rope_score: Callable) -> None:
    """``partial_rope_score(q, k, m, n, rotary_fraction, base)``: the dot product of ``q`` at ``m`` and ``k`` at
    ``n`` when only the first ``r = int(d * rotary_fraction)`` dimensions are rotated."""
    rng = seeded_rng("partial_rope_score")
    cases = [(8, 0.25, 10000.0), (16, 0.5, 100.0), (32, 0.75, 10000.0), (12, 0.5, 10000.0)]
    for d, fraction, base in cases:
        q, k = rng.standard_normal((2, d))
        m, n = (int(p) for p in rng.choice(200, 2, replace=False))
        args = (q, k, m, n, fraction, base)
        got = as_number("partial_rope_score", run_answer("partial_rope_score", partial_rope_score, *args), args)
        r = int(d * fraction)
        q_m, k_n = (partial_rope(v[None], [p], rotary_fraction=fraction, base=base)[0] for v, p in ((q, m), (k, n)))
        expected = float(q_m @ k_n)
        judge("partial_rope_score", args, got, expected, [
            (_partial_score(q, k, m, n, slice(None, r), base ** (r / d)),
             "the rotated dimensions use the whole head's ladder.",
             "the ladder is built over the r rotated dimensions: θ_j = base ** (-2j/r)."),
            (_partial_score(q, k, m, n, slice(d - r, None), base), "it rotates the last r dimensions.",
             "the first r dimensions turn."),
            (expected - float(q[r:] @ k[r:]), "the dimensions that pass through are left out of the score.",
             "they still add their plain dot product."),
            (_partial_score(q, k, m, n, slice(None), base), "every dimension is rotated.",
             "only the first r = int(d * rotary_fraction) turn."),
            (expected / np.sqrt(d), "it divides by sqrt(d).", "return the plain dot product."),
            (_partial_score(q, k, n, m, slice(None, r), base), "the query and key positions are swapped.",
             "q sits at m and k at n."),
        ], "rotate q[:r] by m and k[:r] by n (RoPE of width r), then add the dot product of the rest.")
    passed("partial_rope_score", len(cases))
