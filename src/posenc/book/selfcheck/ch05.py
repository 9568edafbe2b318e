"""The self-checks of the exercises of chapter 5, *Rotations preserve the norm*: one ``check_<answer>`` per answer."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from posenc.geometry import rotation_2d
from posenc.sinusoidal import sinusoidal_table

from .checking import as_array, judge, passed, run_answer, seeded_rng


def check_rotate(rotate: Callable) -> None:
    """``rotate(q, m, theta)`` turns the plane vector ``q`` counter-clockwise by ``m * theta``."""
    rng = seeded_rng("rotate")
    cases = [(rng.standard_normal(2), int(rng.integers(-20, 20)), float(rng.uniform(0.05, 2.0))) for _ in range(6)]
    for q, m, theta in cases:
        args = (q, m, theta)
        got = as_array("rotate", run_answer("rotate", rotate, *args), (2,), args)
        angle = m * theta
        judge("rotate", args, got, rotation_2d(angle) @ q, [
            (rotation_2d(-angle) @ q, "it turns clockwise.", "a positive angle should carry (1, 0) toward (0, 1)."),
            (rotation_2d(theta) @ q if m != 1 else np.nan, "the angle ignores the position.",
             "turn by m·θ, not θ."),
            (np.array([[np.sin(angle), -np.cos(angle)], [np.cos(angle), np.sin(angle)]]) @ q,
             "sine and cosine are swapped.", "at angle 0 nothing should move."),
        ], "the result is (x cos a - y sin a, x sin a + y cos a) with a = m·θ.")
    passed("rotate", len(cases))


def check_added_norms(added_norms: Callable) -> None:
    """``added_norms(q, n_positions)[m]`` is :math:`\\|q + \\mathrm{PE}(m)\\|` for ``m = 0..n_positions-1``."""
    rng = seeded_rng("added_norms")
    cases = [(rng.standard_normal(d), n) for d, n in [(4, 6), (16, 10), (8, 1)]]
    for q, n in cases:
        args = (q, n)
        got = as_array("added_norms", run_answer("added_norms", added_norms, *args), (n,), args)
        table = sinusoidal_table(n + 1, q.shape[0])
        judge("added_norms", args, got, np.linalg.norm(q + table[:n], axis=1), [
            (np.linalg.norm(q + table[1:], axis=1), "the positions are off by one.", "the first is position 0."),
            (np.linalg.norm(q) + np.linalg.norm(table[:n], axis=1), "that adds the two lengths.",
             "the length of a sum depends on the angle between the vectors: add first, then measure."),
            (np.sum((q + table[:n]) ** 2, axis=1), "these are squared lengths.", "take the square root."),
        ], "add PE(m) to q, then take the length of the sum, for each m.")
    passed("added_norms", len(cases))
