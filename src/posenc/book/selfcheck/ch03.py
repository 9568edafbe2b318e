"""The self-checks of the exercises of chapter 3, *A ladder of frequencies*: one ``check_<answer>`` per answer."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from posenc.rotary import interleaved_to_half
from posenc.sinusoidal import frequencies as _frequencies
from posenc.sinusoidal import shift_matrix as _shift_matrix
from posenc.sinusoidal import similarity_from_offset, sinusoidal_table

from .checking import as_array, as_number, judge, passed, run_answer, seeded_rng


def check_frequencies(frequencies: Callable) -> None:
    """``frequencies(d, base)`` is the ladder :math:`\\theta_j = \\text{base}^{-2j/d}`, ``j = 0..d/2-1``."""
    cases = [(8, 10000.0), (64, 10000.0), (6, 100.0), (128, 500000.0)]
    for d, base in cases:
        args = (d, base)
        got = as_array("frequencies", run_answer("frequencies", frequencies, *args), (d // 2,), args)
        j = np.arange(d // 2)
        judge("frequencies", args, got, _frequencies(d, base), [
            (base ** (-j / d), "the exponent lacks its factor 2.", "the last hand should turn almost 1/base."),
            (base ** (2 * j / d), "the exponent has the wrong sign.",
             "the hands should slow down, from 1 radian per position toward 1/base."),
            (base ** (-2 * (j + 1) / d), "j starts at 1.", "the first hand (j = 0) turns one radian per position."),
            (_frequencies(d, base) / (2 * np.pi), "these are turns per position.", "the ladder is in radians."),
        ], "theta_0 should be 1 and each next hand slower by the same factor, down to almost 1/base.")
    passed("frequencies", len(cases))


def check_sinusoidal_table(sinusoidal_table_fn: Callable) -> None:
    """``sinusoidal_table(n, d, base)``: row ``p`` is ``(sin pθ_0, cos pθ_0, sin pθ_1, cos pθ_1, ...)``."""
    cases = [(5, 4, 10000.0), (12, 16, 10000.0), (7, 6, 100.0)]
    for n, d, base in cases:
        args = (n, d, base)
        got = as_array("sinusoidal_table", run_answer("sinusoidal_table", sinusoidal_table_fn, *args), (n, d), args)
        expected = sinusoidal_table(n, d, base)
        angles = np.outer(np.arange(n), _frequencies(d, base))
        judge("sinusoidal_table", args, got, expected, [
            (expected[:, np.arange(d) ^ 1], "sine and cosine are swapped.", "column 2j holds the sine."),
            (sinusoidal_table(n + 1, d, base)[1:], "the positions are off by one.", "the first row is position 0."),
            (np.concatenate([np.sin(angles), np.cos(angles)], axis=1),
             "the pairs are laid out as halves (all the sines, then all the cosines).", "interleave them."),
        ], "row p should hold sin(p·θ_j) in column 2j and cos(p·θ_j) in column 2j+1.")
    passed("sinusoidal_table", len(cases))


def check_offset_similarity(offset_similarity: Callable) -> None:
    """``offset_similarity(k, d, base)``: the closed form of :math:`\\mathrm{PE}(p)\\cdot\\mathrm{PE}(p+k)`."""
    rng = seeded_rng("offset_similarity")
    cases = [(int(rng.integers(-50, 50)), d, base) for d, base in [(8, 10000.0), (32, 10000.0), (10, 100.0)]]
    cases += [(0, 16, 10000.0)]
    for k, d, base in cases:
        args = (k, d, base)
        got = as_number("offset_similarity", run_answer("offset_similarity", offset_similarity, *args), args)
        theta = _frequencies(d, base)
        judge("offset_similarity", args, got, similarity_from_offset(k, d, base)[0], [
            (np.sin(k * theta).sum(), "that is a sum of sines.", "sin a sin b + cos a cos b is a cosine."),
            (np.cos(k * base ** (-np.arange(d) / d)).sum(), "it sums over d frequencies.",
             "there is one frequency per pair: d/2 of them."),
            (np.cos(k * theta).mean(), "that is a mean.", "the dot product adds the pairs up."),
        ], "it should equal PE(p)·PE(p+k) for every p; compare it with two rows of a sinusoidal table.")
    passed("offset_similarity", len(cases))


def check_shift_matrix(shift_matrix: Callable) -> None:
    """``shift_matrix(k, d, base) @ PE(p) == PE(p + k)`` for every ``p``."""
    rng = seeded_rng("shift_matrix")
    cases = [(int(rng.integers(-30, 30)), d, base) for d, base in [(4, 10000.0), (8, 100.0), (16, 10000.0)]]
    for k, d, base in cases:
        args = (k, d, base)
        got = as_array("shift_matrix", run_answer("shift_matrix", shift_matrix, *args), (d, d), args)
        expected = _shift_matrix(k, d, base)
        half = interleaved_to_half(d)
        judge("shift_matrix", args, got, expected, [
            (expected.T, "this matrix moves positions backwards (PE(p) to PE(p - k)).",
             "check the signs of the sines."),
            (_shift_matrix(k + 1, d, base), "it shifts by k + 1 positions.", "the angle of block j is k·θ_j."),
            (expected[np.ix_(half, half)], "its blocks act on dimensions (j, j + d/2).",
             "the pairs of the table are (2j, 2j+1)."),
        ], "each 2x2 block should carry (sin a, cos a) to (sin(a+b), cos(a+b)) with b = k·θ_j.")
    passed("shift_matrix", len(cases))
