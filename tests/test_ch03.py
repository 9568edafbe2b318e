"""Chapter 3, *A ladder of frequencies*: its claims, under many inputs."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc.book.claims import ch03 as claims
from posenc.sinusoidal import position_vectors

even_d = st.integers(1, 32).map(lambda h: 2 * h)
shifts = st.floats(-1e4, 1e4, allow_nan=False)
wide_d = st.integers(1, 64).map(lambda h: 2 * h)
position = st.integers(-5000, 5000)


@given(p=position, q=position, d=wide_d)
def test_sinusoidal_dot_product_depends_only_on_offset(p, q, d):
    assert claims.sinusoidal_offset(p, [q], d).holds


@given(k=st.integers(-2000, 2000), d=wide_d)
def test_shift_matrix_moves_every_position_by_k(k, d):
    assert claims.sinusoidal_shift(k, n_positions=40, d=d).holds


@given(shifts, even_d)
def test_shift_matrix_blocks_are_clockwise_rotations(k, d):
    assert claims.shift_blocks_turn_clockwise(k, d).holds


@given(st.integers(-5000, 5000), st.integers(-5000, 5000), even_d)
def test_scaled_sinusoidal_dot_product_is_the_cosine_similarity(m, n, d):
    assert claims.sinusoidal_cosine_similarity(m, n, d).holds


@given(n=st.integers(2, 16), d_model=even_d, seed=st.integers(0, 1000))
def test_added_encoding_score_is_the_sum_of_its_four_terms(n, d_model, seed):
    assert claims.added_encoding_expansion(n, d_model, seed).holds


@given(p=st.integers(0, 10), q=st.integers(0, 10), far=st.integers(1000, 20000), d=even_d)
def test_far_positions_obey_the_same_identity_as_near_ones(p, q, far, d):
    near, distant = position_vectors([p, q], d), position_vectors([p + far, q + far], d)
    assert near[0] @ near[1] == pytest.approx(distant[0] @ distant[1], abs=1e-9)
    assert claims.sinusoidal_offset(p + far, [q + far], d).holds
