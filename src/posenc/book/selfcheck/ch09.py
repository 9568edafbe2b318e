"""The self-checks of the exercises of chapter 9, *Stretching RoPE*: one ``check_<answer>`` per answer."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from posenc.sinusoidal import frequencies as _frequencies

from .checking import as_array, as_number, judge, passed, run_answer, seeded_rng


def check_interpolated_positions(interpolated_positions: Callable) -> None:
    """``interpolated_positions(positions, trained_length, target_length)``: positions squeezed by ``L/L'``."""
    rng = seeded_rng("interpolated_positions")
    cases = [(np.arange(8), 4, 8), (rng.integers(0, 8192, 5), 2048, 8192), (np.arange(3), 1000, 3000)]
    for positions, trained, target in cases:
        args = (positions, trained, target)
        got = as_array("interpolated_positions", run_answer("interpolated_positions", interpolated_positions, *args),
                       positions.shape, args)
        judge("interpolated_positions", args, got, positions * trained / target, [
            (positions * target / trained, "the ratio is upside down.",
             "the positions should shrink into the trained range."),
            (positions * trained // target, "integer division drops the fractions.", "positions may be fractional."),
        ], "the last target position should land where the last trained position was.")
    passed("interpolated_positions", len(cases))


def check_ntk_base(ntk_base: Callable) -> None:
    """``ntk_base(base, scale, d)``: the base whose slowest hand turns ``scale`` times slower."""
    cases = [(10000.0, 4.0, 64), (10000.0, 2.0, 128), (500000.0, 8.0, 32)]
    for base, scale, d in cases:
        args = (base, scale, d)
        got = as_number("ntk_base", run_answer("ntk_base", ntk_base, *args), args)
        judge("ntk_base", args, got, base * scale ** (d / (d - 2)), [
            (base * scale, "multiplying the base by the scale slows the slowest hand by less than the scale.",
             "the slowest hand's frequency is base ** (-(d - 2)/d), not 1/base."),
            (base * scale ** ((d - 2) / d), "the exponent is upside down.", "solve for the new base once more."),
        ], "solve new_base ** (-(d - 2) / d) == base ** (-(d - 2) / d) / scale for new_base.")
    passed("ntk_base", len(cases))


def check_ntk_frequencies(ntk_frequencies: Callable) -> None:
    """``ntk_frequencies(d, base, scale)``: the NTK-aware ladder :math:`\\theta_j\\, s^{-2j/(d-2)}`."""
    rng = seeded_rng("ntk_frequencies")
    cases = [(4, 10000.0, 2.0), (8, 100.0, 4.0), (16, 10000.0, float(rng.uniform(1.5, 8.0)))]
    for d, base, scale in cases:
        args = (d, base, scale)
        got = as_array("ntk_frequencies", run_answer("ntk_frequencies", ntk_frequencies, *args), (d // 2,), args)
        theta, tilt = _frequencies(d, base), np.arange(d // 2) / (d // 2 - 1)
        judge("ntk_frequencies", args, got, theta * scale ** -tilt, [
            (theta / scale, "every hand is slowed by the scale: that is position interpolation.",
             "with the larger base the fastest hand keeps θ_0 = 1."),
            (_frequencies(d, base * scale), "the base is multiplied by the scale itself.",
             "the new base is base * scale ** (d / (d - 2)), as in exercise 2."),
            (theta * scale ** (tilt - 1), "the fastest hand is slowed and the slowest kept: the tilt is reversed.",
             "hand 0 keeps its frequency; the last hand is slowed by exactly the scale."),
        ], "hand j should turn base ** (-2j/d) * scale ** (-2j/(d-2)) radians per position.")
    passed("ntk_frequencies", len(cases))
