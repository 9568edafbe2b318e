"""The self-checks of the exercises of chapter 7, *A clock with many hands*: one ``check_<answer>`` per answer."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from posenc.rotary import interleaved_to_half, rope_matrix
from posenc.sinusoidal import frequencies as _frequencies

from .checking import as_array, as_number, call_text, fail, judge, passed, run_answer, seeded_rng


def check_hand_periods(hand_periods: Callable) -> None:
    """``hand_periods(d, base)``: positions per full turn of each hand, :math:`2\\pi/\\theta_j`."""
    cases = [(8, 10000.0), (64, 10000.0), (16, 500000.0)]
    for d, base in cases:
        args = (d, base)
        got = as_array("hand_periods", run_answer("hand_periods", hand_periods, *args), (d // 2,), args)
        theta = _frequencies(d, base)
        judge("hand_periods", args, got, 2 * np.pi / theta, [
            (theta, "these are the frequencies θ_j.", "a period is the number of positions one full turn takes."),
            (1 / theta, "a full turn is taken as 1 radian.", "a full turn is 2π radians."),
            (2 * np.pi / base ** (-np.arange(d // 2) / d), "the ladder's exponent lacks its factor 2.",
             "θ_j = base ** (-2j/d)."),
        ], "hand j turns θ_j radians per position; how many positions make a full turn?")
    passed("hand_periods", len(cases))


def _alias(theta: float, k: int) -> float:
    turned = np.mod(k * theta, 2 * np.pi)
    return float(min(turned, 2 * np.pi - turned))


def check_alias_distance(alias_distance: Callable) -> None:
    """``alias_distance(theta, k)``: angle between positions ``p`` and ``p + k`` on one hand, the short way round."""
    rng = seeded_rng("alias_distance")
    cases = [(1.0, 13), (1.0, 6), (0.1, 5)]
    cases += [(float(rng.uniform(0.05, 3)), int(rng.integers(1, 60))) for _ in range(5)]
    for theta, k in cases:
        args = (theta, k)
        got = as_number("alias_distance", run_answer("alias_distance", alias_distance, *args), args)
        turned = np.mod(k * theta, 2 * np.pi)
        judge("alias_distance", args, got, _alias(theta, k), [
            (turned, "the angle is not measured the short way round.", "the distance is at most π."),
            (k * theta, "the angle is not reduced modulo a full turn.", "angles 2π apart are the same place."),
        ], "reduce k·θ modulo 2π, then take the shorter of the two ways round the circle.")
    passed("alias_distance", len(cases))


def check_closest_alias(closest_alias: Callable) -> None:
    """``closest_alias(theta, n_positions)``: the offset ``k`` in ``1..n-1`` whose positions land closest."""
    cases = [(1.0, 16), (1.0, 6), (1.0, 7), (0.5, 30), (2.0, 10)]
    for theta, n in cases:
        args = (theta, n)
        got = as_number("closest_alias", run_answer("closest_alias", closest_alias, *args), args)
        best = 1 + int(np.argmin([_alias(theta, k) for k in range(1, n)]))
        if got == best:
            continue
        call = call_text("closest_alias", args)
        if got == 1:
            fail(f"{call} returned 1.", "neighbours are not always closest on a fast hand; measure the angle "
                                         "modulo a full turn.")
        if got < 1 or got >= n:
            fail(f"{call} returned {got:g}, outside the offsets 1 to n_positions - 1.",
                  "two positions among 0..n-1 are at most n - 1 apart.")
        fail(f"{call} does not give the closest offset.", "compare the alias distance of every offset 1..n-1.")
    passed("closest_alias", len(cases))


def check_slowest_hand_span(slowest_hand_span: Callable) -> None:
    """``slowest_hand_span(d, base)``: how many positions ``0, 1, ...`` stay within one turn of the slowest hand."""
    cases = [(64, 10000.0), (8, 10000.0), (128, 500000.0), (4, 100.0)]
    for d, base in cases:
        args = (d, base)
        got = as_number("slowest_hand_span", run_answer("slowest_hand_span", slowest_hand_span, *args), args)
        theta = _frequencies(d, base)
        if got == np.ceil(2 * np.pi / theta[-1]):
            continue
        call = call_text("slowest_hand_span", args)
        if got == np.ceil(2 * np.pi / theta[-1]) - 1:
            fail(f"{call} is one short.", "count position 0 too.")
        if got == np.ceil(2 * np.pi / theta[0]):
            fail(f"{call} uses the fastest hand.", "the slowest hand is the last one of the ladder.")
        fail(f"{call} does not give the right count.",
              "count the positions m = 0, 1, ... whose angle m·θ on the last hand is still below a full turn.")
    passed("slowest_hand_span", len(cases))


def check_clock_shift(clock_shift: Callable) -> None:
    """``clock_shift(k, d, base)`` is :math:`\\Theta_k`: every pair ``(2j, 2j+1)`` turned by ``k θ_j``."""
    rng = seeded_rng("clock_shift")
    cases = [(int(rng.integers(-40, 40)), d, base) for d, base in [(4, 10000.0), (8, 100.0), (16, 10000.0)]]
    for k, d, base in cases:
        args = (k, d, base)
        got = as_array("clock_shift", run_answer("clock_shift", clock_shift, *args), (d, d), args)
        expected = rope_matrix(k, d, base)
        half = interleaved_to_half(d)
        judge("clock_shift", args, got, expected, [
            (expected.T, "the hands turn clockwise.", "each 2x2 block should turn (1, 0) toward (0, 1)."),
            (expected[np.ix_(half, half)], "its pairs are the dimensions (j, j + d/2).",
             "the clock's pairs are (2j, 2j+1)."),
            (rope_matrix(k, d, base ** 0.5), "the ladder's exponent lacks its factor 2.", "θ_j = base ** (-2j/d)."),
        ], "block j should be the rotation by k·θ_j on dimensions 2j and 2j+1.")
    passed("clock_shift", len(cases))
