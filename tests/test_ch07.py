"""Chapter 7, *A clock with many hands*: its claims, under many inputs."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc.book.claims import ch07 as claims
from posenc.book.explorers import ClockExplorer
from posenc.sinusoidal import frequencies

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


def test_the_fast_hand_alone_confuses_two_positions_closer_than_the_slowest_step():
    assert claims.fast_hand_aliases(32768, 64).holds
    assert not claims.fast_hand_aliases(16, 64).holds  # among 16 positions the closest pair is 0.28 apart


def test_the_slowest_hand_keeps_order_within_its_period_only():
    assert claims.slowest_hand_keeps_order(32768, 64).holds
    assert not claims.slowest_hand_keeps_order(50_000, 64).holds  # its period is about 47,117


@pytest.mark.parametrize("d", [16, 64, 128])
def test_the_whole_clock_keeps_neighbours_closest(d):
    assert claims.neighbours_closest(4096, d).holds


def test_one_hand_alone_does_not_keep_neighbours_closest():
    assert not claims.neighbours_closest(64, 2).holds


def nearest_on_hand(theta: float, p: int, shown: int) -> int:
    """The position that lands closest to p on a hand turning theta a position, as the explorer reports it."""
    turns = [abs(q - p) * theta % (2 * math.pi) for q in range(shown)]
    gaps = [min(r, 2 * math.pi - r) for r in turns]  # distance along the circle
    gaps[p] = math.inf
    return min(range(shown), key=lambda q: gaps[q])


def test_the_try_this_of_the_clock_explorer_says_which_hands_alias():
    """Below the first hand that cannot lap the explorer's positions, position 0's nearest is no neighbour;
    from that hand on, every position's nearest is a neighbour."""
    explorer = ClockExplorer()
    theta = frequencies(explorer.d, explorer.base)
    shown = explorer.n_positions
    orderly = next(j for j, t in enumerate(theta) if shown * t < 2 * math.pi)
    assert all(nearest_on_hand(theta[j], 0, shown) != 1 for j in range(orderly))
    assert all(abs(nearest_on_hand(theta[j], p, shown) - p) == 1
               for j in range(orderly, len(theta)) for p in range(shown))
