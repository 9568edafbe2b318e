"""Chapter 5, *Rotations preserve the norm*: its claim, and the spread of scores with rotated
and with added positions."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc.book.claims import ch05 as claims
from posenc.rotary import apply_rope
from posenc.sinusoidal import position_vectors

seed = st.integers(0, 10_000)


@given(seed=seed, max_position=st.integers(1, 20_000))
def test_plane_rotations_preserve_the_norm(seed, max_position):
    assert claims.plane_norm_preserved(n_samples=500, max_position=max_position, seed=seed).holds


def test_rope_keeps_the_spread_of_scaled_scores_and_addition_widens_it():
    rng = np.random.default_rng(5)
    q, k = rng.standard_normal((2, 20_000, 64))
    m, n = np.full(20_000, 1000), np.full(20_000, 37)
    rope = np.einsum("sd,sd->s", apply_rope(q, m), apply_rope(k, n)) / 8
    added = np.einsum("sd,sd->s", q + position_vectors([1000], 64)[0], k + position_vectors([37], 64)[0]) / 8
    assert rope.std() == pytest.approx(1.0, abs=0.03)
    assert added.std() == pytest.approx(np.sqrt(2), abs=0.04)


def test_the_chapter_defaults_hold():
    assert claims.plane_norm_preserved().holds
