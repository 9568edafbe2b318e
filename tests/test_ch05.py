"""Chapter 5, *Rotations preserve the norm*: its claim, and the spread of scores with rotated
and with added positions."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc.book.claims import ch05 as claims
from posenc.rotary import apply_rope
from posenc.sinusoidal import position_vectors, similarity_from_offset

seed = st.integers(0, 10_000)


@given(seed=seed, max_position=st.integers(1, 20_000))
def test_plane_rotations_preserve_the_norm(seed, max_position):
    assert claims.plane_norm_preserved(n_samples=500, max_position=max_position, seed=seed).holds


def scaled_scores(seed: int, n_pairs: int = 20_000, d: int = 64, m: int = 1000, n: int = 37):
    """Scaled scores of random pairs without positions, with RoPE and with added sinusoidal vectors, and the
    mean that the added vectors predict, PE(m)^T PE(n)/sqrt(d) (here from the closed form of chapter 3)."""
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((2, n_pairs, d))
    pe_m, pe_n = position_vectors([m, n], d)
    scores = {"none": np.einsum("sd,sd->s", q, k) / np.sqrt(d),
              "rope": np.einsum("sd,sd->s", apply_rope(q, np.full(n_pairs, m)), apply_rope(k, np.full(n_pairs, n)))
              / np.sqrt(d),
              "added": np.einsum("sd,sd->s", q + pe_m, k + pe_n) / np.sqrt(d)}
    return scores, similarity_from_offset(np.array([n - m]), d)[0] / np.sqrt(d)


@pytest.mark.parametrize("seed", range(5))
def test_rope_keeps_the_spread_of_scaled_scores_and_addition_widens_it(seed):
    scores, position_term = scaled_scores(seed)
    assert claims.score_moments(scores["none"], 0.0, 1.0, "none").holds
    assert claims.score_moments(scores["rope"], 0.0, 1.0, "RoPE").holds
    assert claims.score_moments(scores["added"], position_term, np.sqrt(2), "added").holds
    # and the check tells them apart: the added scores do not have the plain scores' spread or mean
    assert not claims.score_moments(scores["added"], 0.0, 1.0, "added").holds
    assert not claims.score_moments(scores["added"], 0.0, np.sqrt(2), "added").holds


def test_the_chapter_defaults_hold():
    assert claims.plane_norm_preserved().holds
