"""Chapter 7, *A clock with many hands*: its claims, under many inputs."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from posenc.book.claims import ch07 as claims

seed = st.integers(0, 10_000)
even_d = st.integers(1, 32).map(lambda h: 2 * h)
position = st.integers(-20_000, 20_000)


@given(m=position, n=position, d=even_d)
def test_block_rotations_compose_by_difference(m, n, d):
    assert claims.block_rotation_difference(m, n, d).holds


@given(m=position, d=even_d, seed=st.integers(0, 1000))
def test_rotation_preserves_the_norm(m, d, seed):
    assert claims.norm_preserved(m, d, seed=seed).holds


@given(m=position, d=even_d)
def test_block_rotations_are_orthogonal(m, d):
    assert claims.block_rotation_orthogonal(m, d).holds


@given(n_positions=st.integers(2, 120), d=even_d, base=st.floats(2.0, 1e5))
def test_clock_distance_depends_only_on_the_offset(n_positions, d, base):
    assert claims.clock_distance_depends_on_offset(n_positions, d, base).holds


@given(k=position, n_positions=st.integers(1, 40), d=even_d, seed=seed)
def test_moving_every_position_on_by_k_is_one_fixed_matrix(k, n_positions, d, seed):
    assert claims.clock_advance(k, n_positions, d, seed=seed).holds


@given(m=position, n=position, d=even_d, seed=seed)
def test_rope_is_multiplication_by_unit_complex_numbers(m, n, d, seed):
    assert claims.complex_view(m, n, d, seed=seed).holds


def test_the_chapter_defaults_hold():
    assert claims.clock_distance_depends_on_offset().holds
