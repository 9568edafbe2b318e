"""The self-checks of the exercises of chapter 8, *Serving RoPE*: one ``check_<answer>`` per answer."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from posenc.rotary import apply_rope
from posenc.sinusoidal import frequencies as _frequencies

from .checking import as_array, call_text, fail, judge, matches, passed, run_answer, seeded_rng


def _check_rope(name: str, function: Callable, layout: str) -> None:
    rng = seeded_rng(name)
    other = "half" if layout == "interleaved" else "interleaved"
    pairs = "(2j, 2j+1)" if layout == "interleaved" else "(j, j + d/2)"
    cases = [(5, 4, 10000.0, np.arange(5)), (6, 8, 100.0, 17 + np.arange(6)),
             (3, 16, 10000.0, np.array([2, 9, 40]))]
    for seq, d, base, positions in cases:
        x = rng.standard_normal((seq, d))
        args = (x, positions, base)
        got = as_array(name, run_answer(name, function, *args), (seq, d), args)

        def rope(p=positions, b=base, how=layout, x=x):
            return apply_rope(x, p, base=b, layout=how)

        judge(name, args, got, rope(), [
            (rope(how=other), f"it pairs the dimensions the {other} way.", f"pair j is dimensions {pairs}."),
            (rope(p=-positions), "it turns clockwise.", "check the signs of the sines."),
            (rope(p=positions + 1), "the positions are off by one.", "use the positions exactly as given."),
            (rope(p=None) if positions[0] else np.nan, "it ignores `positions` and numbers the rows 0, 1, 2, ...",
             "with a KV cache the new rows do not start at position 0."),
            (rope(b=base ** 0.5), "the ladder's exponent lacks its factor 2.", "θ_j = base ** (-2j/d)."),
        ], f"pair j of row i, dimensions {pairs}, should turn by positions[i]·θ_j.")
    passed(name, len(cases))


def check_apply_rope_interleaved(apply_rope_interleaved: Callable) -> None:
    """``apply_rope_interleaved(x, positions, base)``: RoPE with pairs ``(2j, 2j+1)``."""
    _check_rope("apply_rope_interleaved", apply_rope_interleaved, "interleaved")


def check_apply_rope_half(apply_rope_half: Callable) -> None:
    """``apply_rope_half(x, positions, base)``: RoPE with pairs ``(j, j + d/2)``."""
    _check_rope("apply_rope_half", apply_rope_half, "half")


def _half_pairs_with_interleaved_angles(x: np.ndarray, positions, base: float) -> np.ndarray:
    """The exercise's bug: ``rotate_half`` pairs (j, j + d/2), the angles are laid out for pairs (2j, 2j+1)."""
    d = x.shape[-1]
    angles = np.outer(positions, np.repeat(_frequencies(d, base), 2))
    rotated = np.concatenate([-x[:, d // 2:], x[:, : d // 2]], axis=1)
    return x * np.cos(angles) + rotated * np.sin(angles)


def check_rope_half_fixed(rope_half_fixed: Callable) -> None:
    """``rope_half_fixed(x, positions, base)``: the buggy kernel of the exercise, fixed; RoPE with pairs
    ``(j, j + d/2)``. First the bug itself is recognised, then every mistake of :func:`check_apply_rope_half`."""
    rng = seeded_rng("rope_half_fixed")
    for seq, d, base, positions in [(4, 8, 10000.0, 3 + np.arange(4)), (3, 4, 100.0, np.array([1.0, 5.0, 6.5]))]:
        x = rng.standard_normal((seq, d))
        args = (x, positions, base)
        got = as_array("rope_half_fixed", run_answer("rope_half_fixed", rope_half_fixed, *args), (seq, d), args)
        if matches(got, _half_pairs_with_interleaved_angles(x, positions, base)):
            fail(f"{call_text('rope_half_fixed', args)}: the bug is still there: dimension j and dimension j + d/2 "
                  "turn by different angles.",
                  "rotate_half pairs j with j + d/2, so the table of angles must repeat the d/2 angles as two halves.")
    _check_rope("rope_half_fixed", rope_half_fixed, "half")
