"""The claims of chapters 4-7, each under many inputs: rotation in the plane, norms, Toeplitz scores, the clock."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc import claims, clock
from posenc.geometry import plane_angle, rotation_2d
from posenc.rotary import apply_rope
from posenc.scores import (
    additive_pair_scores,
    circulant,
    circulant_deviation,
    plane_score_from_offset,
    plane_scores,
    shifted_pair_scores,
    toeplitz,
    toeplitz_deviation,
)
from posenc.sinusoidal import position_vectors

seed = st.integers(0, 10_000)
even_d = st.integers(1, 32).map(lambda h: 2 * h)
position = st.integers(-20_000, 20_000)
speed = st.floats(1e-4, 3.2)


# Chapter 4: rotation, not addition


@given(seed=seed, max_position=st.integers(1, 20_000))
def test_plane_rotations_compose_by_difference(seed, max_position):
    assert claims.rotation_difference_sample(n_samples=500, max_position=max_position, seed=seed).holds


@given(m=position, n=position, shift=position, theta=speed, seed=seed)
def test_angle_between_rotated_query_and_key_depends_only_on_offset(m, n, shift, theta, seed):
    q, k = np.random.default_rng(seed).standard_normal((2, 2))

    def turn(a, b):
        return plane_angle(rotation_2d(a * theta) @ q, rotation_2d(b * theta) @ k)

    expected = plane_angle(q, k) + (n - m) * theta
    tolerance = 1e-13 * (1 + (abs(m) + abs(n) + abs(shift)) * theta) + 1e-9
    assert float(clock.angular_distance(turn(m, n), expected)) <= tolerance
    assert float(clock.angular_distance(turn(m + shift, n + shift), expected)) <= tolerance


def test_the_seed_figure_meets_at_120_degrees_in_both_panels():
    q = np.array([np.cos(np.radians(20)), np.sin(np.radians(20))])
    k = 0.8 * np.array([np.cos(np.radians(50)), np.sin(np.radians(50))])
    for m, n in ((2, 5), (7, 10)):
        turn = plane_angle(rotation_2d(m * np.pi / 6) @ q, rotation_2d(n * np.pi / 6) @ k)
        assert np.degrees(turn) == pytest.approx(120.0, abs=1e-10)


@given(m=st.integers(0, 5000), n=st.integers(0, 5000), d=even_d, seed=seed)
def test_shifting_query_and_key_together_leaves_the_rope_score_unchanged(m, n, d, seed):
    q, k = np.random.default_rng(seed).standard_normal((2, d))
    scores = shifted_pair_scores(q, k, m, n, np.arange(0, 3000, 97))
    assert np.ptp(scores) <= 1e-12 * (1 + m + n + 3000) * np.sqrt(d)


def test_added_position_vectors_make_the_score_move_with_the_shift():
    q, k = np.random.default_rng(4).standard_normal((2, 64))
    assert np.ptp(additive_pair_scores(q, k, 2, 5, np.arange(512))) > 1.0


# Chapter 5: rotations preserve the norm


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


@given(seed=seed, d=even_d)
def test_adding_a_sinusoidal_vector_makes_the_length_depend_on_the_position(seed, d):
    q = np.random.default_rng(seed).standard_normal(d)
    p = position_vectors(np.arange(256), d)
    lengths_squared = np.sum((q + p) ** 2, axis=1)
    np.testing.assert_allclose(lengths_squared, q @ q + 2 * p @ q + d / 2, atol=1e-9)
    assert np.ptp(lengths_squared) > 0.0


# Chapter 6: the score matrix is Toeplitz


@given(first_row=st.lists(st.floats(-100, 100), min_size=1, max_size=12), seed=seed)
def test_circulant_matrices_are_toeplitz(first_row, seed):
    assert toeplitz_deviation(circulant(first_row)) == 0.0
    assert claims.circulant_is_toeplitz(n=len(first_row), seed=seed).holds


def test_the_printed_toeplitz_example_is_not_circulant():
    t = toeplitz([1, 5, 6, 7], [1, 2, 3, 4])
    assert toeplitz_deviation(t) == 0.0 and circulant_deviation(t) == 5.0


@given(n_positions=st.integers(2, 40), seed=seed)
def test_one_hand_making_one_turn_over_the_sequence_gives_circulant_scores(n_positions, seed):
    assert claims.single_hand_circulant(n_positions, seed).holds


def test_one_hand_turning_one_radian_is_toeplitz_but_not_circulant():
    q, k = np.random.default_rng(2).standard_normal((2, 2))
    s = plane_scores(q, k, 8, 1.0)
    assert toeplitz_deviation(s) < 1e-14 and circulant_deviation(s) > 1.0


@given(theta=speed, n_offsets=st.integers(1, 300), seed=seed)
def test_one_hand_scores_a_sinusoid_in_the_offset(theta, n_offsets, seed):
    assert claims.offset_sinusoid(theta, n_offsets, seed).holds


@given(theta=speed, period=st.integers(1, 1000), seed=seed)
def test_offsets_nearly_a_turn_apart_score_nearly_alike(theta, period, seed):
    q, k = np.random.default_rng(seed).standard_normal((2, 2))
    offsets = np.arange(-200, 201)
    later, now = (plane_score_from_offset(q, k, offsets + p, theta) for p in (period, 0))
    change = np.abs(later - now)
    amplitude = np.linalg.norm(q) * np.linalg.norm(k) / np.sqrt(2)
    assert change.max() <= amplitude * float(clock.angular_distance(period * theta, 0.0)) + 1e-9


# Chapter 7: a clock with many hands


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


def test_the_slowest_d64_hand_never_completes_a_turn_in_32768_tokens():
    periods = clock.hand_periods(64)
    assert periods[-1] > 32_768 and np.sum(periods < 32_768) == 30


def test_one_fast_hand_confuses_positions_710_apart_but_the_whole_clock_does_not():
    fast_alone = clock.min_separation(2, n_positions=32_768)
    assert fast_alone.offset == 710 and fast_alone.distance < 1e-4
    assert clock.min_separation(64, n_positions=32_768).distance > 1.5


@pytest.mark.parametrize("claim", [claims.rotation_difference_sample, claims.plane_norm_preserved,
                                   claims.circulant_is_toeplitz, claims.single_hand_circulant,
                                   claims.clock_distance_depends_on_offset])
def test_the_chapter_defaults_hold(claim):
    assert claim().holds

