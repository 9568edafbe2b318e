"""The self-checks of the exercises of chapter 4, *Rotation, not addition*: one ``check_<answer>`` per answer."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from posenc.geometry import rotation_2d

from .checking import as_array, as_number, judge, passed, run_answer, seeded_rng


def check_rotation(rotation: Callable) -> None:
    """``rotation(angle)`` is the counter-clockwise rotation of the plane by ``angle`` radians."""
    rng = seeded_rng("rotation")
    angles = [float(a) for a in rng.uniform(-4, 4, 6)]
    for angle in angles:
        args = (angle,)
        got = as_array("rotation", run_answer("rotation", rotation, angle), (2, 2), args)
        expected = rotation_2d(angle)
        judge("rotation", args, got, expected, [
            (expected.T, "it turns clockwise.", "a small positive angle should carry (1, 0) toward (0, 1)."),
            (np.array([[np.sin(angle), -np.cos(angle)], [np.cos(angle), np.sin(angle)]]),
             "sine and cosine are swapped.", "rotation(0) should leave every vector where it is."),
            (rotation_2d(np.deg2rad(angle)), "it reads the angle in degrees.", "angles here are in radians."),
        ], "rotation(0) should be the identity, and the columns the images of (1, 0) and (0, 1).")
    passed("rotation", len(angles))


def check_rope_score(rope_score: Callable) -> None:
    """``rope_score(q, k, m, n, theta)``: :math:`(R_m q)\\cdot(R_n k)/\\sqrt 2` for vectors of the plane."""
    rng = seeded_rng("rope_score")
    cases = [(rng.standard_normal(2), rng.standard_normal(2), int(rng.integers(0, 40)), int(rng.integers(0, 40)),
              float(rng.uniform(0.05, 1.5))) for _ in range(6)]
    for q, k, m, n, theta in cases:
        args = (q, k, m, n, theta)
        got = as_number("rope_score", run_answer("rope_score", rope_score, *args), args)
        rq, rk = rotation_2d(m * theta) @ q, rotation_2d(n * theta) @ k
        judge("rope_score", args, got, rq @ rk / np.sqrt(2), [
            (rq @ rk, "the dot product is not scaled.", "divide by √d, and d = 2 here."),
            (q @ k / np.sqrt(2), "the positions have no effect.", "turn q by m·θ and k by n·θ."),
            (rq @ (rotation_2d(m * theta) @ k) / np.sqrt(2), "both vectors are turned by m·θ.",
             "the key turns by its own position, n·θ."),
            (rq @ (rotation_2d(-n * theta) @ k) / np.sqrt(2), "the key is turned backwards (by -n·θ).",
             "both vectors turn counter-clockwise."),
        ], "turn q by m·θ and k by n·θ, take the dot product, divide by √2.")
    passed("rope_score", len(cases))
