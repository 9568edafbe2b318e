"""The clock: periods of the hands, readings mod 2 pi, circle distance, distance by offset."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc import clock
from posenc.geometry import plane_angle, rotation_2d
from posenc.sinusoidal import frequencies

even_d = st.integers(1, 32).map(lambda h: 2 * h)
angle = st.floats(-1e4, 1e4)
speed = st.floats(1e-4, 3.0)


@given(d=even_d, base=st.floats(2.0, 1e6))
def test_each_hand_turns_once_per_period(d, base):
    periods = clock.hand_periods(d, base)
    np.testing.assert_allclose(periods * frequencies(d, base), 2 * np.pi)
    assert np.all(np.diff(periods) > 0)


@given(positions=st.lists(st.integers(-10**6, 10**6), min_size=1, max_size=20), theta=speed)
def test_wrapped_angles_lie_in_one_turn_and_agree_with_the_raw_angle(positions, theta):
    wrapped = clock.wrapped_angles(positions, theta)
    assert wrapped.shape == (len(positions),)
    assert np.all((wrapped >= 0) & (wrapped < 2 * np.pi))
    raw = np.asarray(positions, dtype=float) * theta
    np.testing.assert_allclose(np.cos(wrapped), np.cos(raw), atol=1e-9)
    np.testing.assert_allclose(np.sin(wrapped), np.sin(raw), atol=1e-9)


def test_wrapped_angles_have_one_column_per_hand():
    readings = clock.wrapped_angles(np.arange(5), frequencies(8))
    assert readings.shape == (5, 4)
    np.testing.assert_allclose(readings[:, 0], np.mod(np.arange(5), 2 * np.pi))


def test_a_tiny_negative_angle_wraps_to_zero_not_to_a_full_turn():
    assert clock.wrapped_angles([-1.0], 1e-17)[0] == 0.0


@given(a=angle, b=angle)
def test_circle_distance_is_the_angle_between_the_unit_vectors(a, b):
    u, v = np.array([np.cos(a), np.sin(a)]), np.array([np.cos(b), np.sin(b)])
    assert float(clock.angular_distance(a, b)) == pytest.approx(abs(plane_angle(u, v)), abs=1e-7)


@given(d=st.integers(1, 8).map(lambda h: 2 * h), n_positions=st.integers(2, 80), base=st.floats(2.0, 1e4))
def test_the_clock_distance_of_every_pair_is_the_distance_of_its_offset(d, n_positions, base):
    m, n = np.triu_indices(n_positions, 1)
    np.testing.assert_allclose(clock.clock_distance(m, n, d, base), clock.offset_distance(n - m, d, base), atol=1e-9)


@given(alpha=st.floats(-3.1, 3.1), u=st.tuples(st.floats(-5, 5), st.floats(-5, 5)))
def test_plane_angle_measures_the_turn_from_u_to_v(alpha, u):
    u = np.array(u)
    if np.linalg.norm(u) < 1e-3:
        return
    assert plane_angle(u, 2.5 * rotation_2d(alpha) @ u) == pytest.approx(alpha, abs=1e-9)
