"""RoFormer's long-term decay bound: its partial sums, its value at distance 0, and that it bounds the score (where it
levels off is checked on the page of chapter 9)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc.decay import long_term_decay_bound, rope_partial_sums
from posenc.fourier import offset_coefficients
from posenc.rotary import apply_rope

even_d = st.integers(1, 32).map(lambda h: 2 * h)


def test_partial_sums_are_cumulative_sums_of_unit_phasors():
    d, r = 8, 3.0
    theta = [10_000.0 ** (-2 * j / d) for j in range(d // 2)]
    expected = np.cumsum([np.exp(1j * r * t) for t in theta])
    np.testing.assert_allclose(rope_partial_sums([r], d)[0], expected, rtol=1e-14)


@given(d=even_d)
def test_decay_bound_at_distance_zero_is_the_mean_of_one_to_d_over_2(d):
    assert long_term_decay_bound([0], d)[0] == pytest.approx((d // 2 + 1) / 2)


@pytest.mark.verifies("thm-long-term-decay")
@given(d=even_d, seed=st.integers(0, 10_000), base=st.sampled_from([10_000.0, 500_000.0]))
def test_roformers_bound_holds_at_every_distance_with_the_key_behind_the_query_or_ahead(d, seed, base):
    q, k = np.random.default_rng(seed).standard_normal((2, d))
    offsets = np.arange(513)
    behind = apply_rope(np.tile(q, (513, 1)), offsets, base=base) @ k  # query at |Delta|, key at 0
    ahead = apply_rope(np.tile(k, (513, 1)), offsets, base=base) @ q  # query at 0, key at |Delta|
    h = np.r_[offset_coefficients(q, k), 0]  # h_0, ..., h_(d/2) = 0
    bound = np.max(np.abs(np.diff(h))) * np.abs(rope_partial_sums(offsets, d, base)).sum(axis=1)
    assert np.all(np.maximum(np.abs(behind), np.abs(ahead)) / np.sqrt(d) <= bound * (1 + 1e-12))
