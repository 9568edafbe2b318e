"""RoFormer's long-term decay bound: its partial sums, its value at distance 0, where it levels off."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc.decay import long_term_decay_bound, long_term_decay_octaves, random_walk_level, rope_partial_sums

even_d = st.integers(1, 32).map(lambda h: 2 * h)


def test_partial_sums_are_cumulative_sums_of_unit_phasors():
    d, r = 8, 3.0
    theta = [10_000.0 ** (-2 * j / d) for j in range(d // 2)]
    expected = np.cumsum([np.exp(1j * r * t) for t in theta])
    np.testing.assert_allclose(rope_partial_sums([r], d)[0], expected, rtol=1e-14)


@given(d=even_d)
def test_decay_bound_at_distance_zero_is_the_mean_of_one_to_d_over_2(d):
    assert long_term_decay_bound([0], d)[0] == pytest.approx((d // 2 + 1) / 2)


def test_the_decay_bound_levels_off_at_the_random_walk_level():
    edges, means = long_term_decay_octaves(128, 10_000.0, octaves=20)
    assert edges[0] == 1 and edges[-1] == 2**20 and means.shape == (20,)
    assert means[0] > 30 and abs(means[-1] / random_walk_level(128) - 1) < 0.05
