"""Many planes: random orthogonal matrices, matrix powers, the offset deviation of a product of maps, and the
rotation form of an orthogonal matrix (plane rotations compose and keep angles on the page of chapter 4)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc.geometry import (
    block_diagonal_rotation,
    matrix_powers,
    offset_deviation,
    random_orthogonal,
    rotation_form,
)

seed = st.integers(0, 10_000)
width = st.integers(1, 12)


@given(seed, width)
def test_a_random_orthogonal_matrix_is_orthogonal_and_fixed_by_its_seed(s, d):
    a = random_orthogonal(d, seed=s)
    np.testing.assert_allclose(a.T @ a, np.eye(d), atol=1e-13)
    np.testing.assert_array_equal(a, random_orthogonal(d, seed=s))


def test_random_orthogonal_matrices_have_both_determinants():
    signs = {round(float(np.linalg.det(random_orthogonal(4, seed=s)))) for s in range(20)}
    assert signs == {-1, 1}


def test_matrix_powers_start_at_the_identity_and_multiply():
    a = np.random.default_rng(0).standard_normal((3, 3))
    powers = matrix_powers(a, 5)
    np.testing.assert_array_equal(powers[0], np.eye(3))
    np.testing.assert_allclose(powers[4], np.linalg.matrix_power(a, 4), rtol=1e-12)


@given(seed, st.integers(1, 5), st.integers(1, 6), st.booleans())
def test_offset_deviation_is_the_largest_change_of_a_product_entry_when_both_positions_move_by_one(s, d, n, shared):
    """Against a loop over every pair of positions and every entry of B_m^T A_n, one at a time."""
    rng = np.random.default_rng(s)
    queries = rng.standard_normal((n, d, d))
    keys = queries if shared else rng.standard_normal((n, d, d))
    expected = max((abs(queries[m][:, i] @ keys[k][:, j] - queries[m + 1][:, i] @ keys[k + 1][:, j])
                    for m in range(n - 1) for k in range(n - 1) for i in range(d) for j in range(d)), default=0.0)
    got = offset_deviation(queries) if shared else offset_deviation(queries, keys)
    assert got == pytest.approx(expected, rel=1e-12, abs=1e-14)


@given(seed, width)
def test_the_form_has_angles_strictly_between_zero_and_pi_and_signs_that_make_the_determinant(s, d):
    a = random_orthogonal(d, seed=s)
    form = rotation_form(a)
    assert 2 * len(form.angles) + len(form.signs) == d
    assert np.all((form.angles > 0) & (form.angles < np.pi))
    assert set(form.signs) <= {-1.0, 1.0}
    assert np.prod(form.signs) == round(float(np.linalg.det(a)))
    assert len(form.signs) % 2 == d % 2  # an odd width always keeps or flips one direction


def planes_and_signs(angles, signs) -> np.ndarray:
    """diag(R(angles[0]), ..., R(angles[-1]), signs[0], ..., signs[-1])."""
    r = 2 * len(angles)
    inner = np.zeros((r + len(signs),) * 2)
    inner[:r, :r] = block_diagonal_rotation(angles)
    inner[r:, r:] = np.diag(signs)
    return inner


@given(seed, st.lists(st.floats(0.1, 3.0), min_size=1, max_size=3), st.integers(0, 2))
def test_the_form_finds_the_planes_and_signs_an_orthogonal_matrix_was_built_from(s, angles, n_fixed):
    """The same angle twice (a 4-dimensional eigenspace) and kept or flipped directions, in a random basis."""
    angles, signs = np.r_[angles, angles[:1]], np.array([(-1.0) ** i for i in range(n_fixed)])
    p = random_orthogonal(2 * len(angles) + n_fixed, seed=s)
    a = p @ planes_and_signs(angles, signs) @ p.T
    form = rotation_form(a)
    np.testing.assert_allclose(np.sort(form.angles), np.sort(angles), atol=1e-9)
    np.testing.assert_array_equal(np.sort(form.signs), np.sort(signs))
    np.testing.assert_allclose(form.basis.T @ form.basis, np.eye(len(a)), atol=1e-12)
    np.testing.assert_allclose(form.basis.T @ a @ form.basis, planes_and_signs(form.angles, form.signs), atol=1e-9)


def test_half_turns_and_the_identity_are_plus_and_minus_one_entries():
    assert list(rotation_form(np.eye(3)).signs) == [1.0, 1.0, 1.0]
    assert list(rotation_form(np.diag([1.0, -1.0])).signs) == [-1.0, 1.0]
