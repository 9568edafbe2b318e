"""Chapter 4, *Rotation, not addition*: its claims under many inputs, and what offset-only scores force:
position maps shared by queries and keys, with position 0 the identity, whose scores see only the offset are
powers of one orthogonal matrix (and without either hypothesis they need not be), and an orthogonal matrix is
rotations of planes (and +-1 entries) in a suitable orthonormal basis."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc.book.claims import ch04 as claims
from posenc.geometry import block_diagonal_rotation, matrix_powers, random_orthogonal, rotation_form
from posenc.rotary import apply_rope, rope_matrix

seed = st.integers(0, 10_000)
even_d = st.integers(1, 32).map(lambda h: 2 * h)
width = st.integers(1, 12)
n_positions = st.integers(2, 40)
position = st.integers(-20_000, 20_000)


@given(m=position, n=position, theta=st.floats(1e-4, 3.2))
def test_rotation_transpose_times_rotation_is_rotation_by_difference(m, n, theta):
    assert claims.rotation_difference(m, n, theta).holds


@given(seed=seed, max_position=st.integers(1, 20_000), theta_max=st.floats(1e-3, 2 * np.pi))
def test_plane_rotations_compose_by_difference(seed, max_position, theta_max):
    assert claims.rotation_difference_sample(n_samples=500, max_position=max_position, theta_max=theta_max,
                                             seed=seed).holds


@pytest.mark.parametrize("theta_max", [0.01, 1.0, np.pi])
def test_the_sampled_angles_stay_below_theta_max_and_come_near_it(theta_max):
    """The tolerance is 1e-13 (1 + max |m theta| + max |n theta|): it reads the largest angles drawn."""
    max_position = 4096
    tolerance = claims.rotation_difference_sample(max_position=max_position, theta_max=theta_max).tolerance
    assert 1e-13 * (1 + 1.9 * max_position * theta_max) < tolerance <= 1e-13 * (1 + 2 * max_position * theta_max)


@given(st.floats(-1e4, 1e4, allow_nan=False), even_d, st.integers(0, 2**32 - 1))
def test_apply_rope_turns_each_pair_by_its_own_plane_rotation(m, d, seed):
    assert claims.rope_turns_each_pair(m, d, seed=seed).holds


@given(m=position, n=position, shift=position, d=even_d, seed=st.integers(0, 1000))
def test_rope_scores_depend_only_on_offset(m, n, shift, d, seed):
    assert claims.rope_scores_depend_on_offset(m, n, shift, d, seed=seed).holds


@given(seed, width, n_positions)
def test_powers_of_an_orthogonal_matrix_give_scores_that_see_only_the_offset(s, d, n):
    check = claims.position_maps_offset_only(matrix_powers(random_orthogonal(d, seed=s), n))
    assert check.holds, check


@given(seed, st.integers(2, 12), n_positions)
def test_powers_of_a_matrix_that_is_not_orthogonal_fail(s, d, n):
    a = np.random.default_rng(s).standard_normal((d, d)) / np.sqrt(d)
    gap = np.max(np.abs(a.T @ a - np.eye(d)))  # the deviation at (m, n) = (0, 0) against (1, 1)
    check = claims.position_maps_offset_only(matrix_powers(a, n))
    assert not check.holds
    assert check.max_deviation >= gap * (1 - 1e-12)


@given(seed, width, st.floats(0.01, 0.2))
def test_an_orthogonal_matrix_stretched_ever_so_slightly_fails(s, d, stretch):
    a = random_orthogonal(d, seed=s) @ np.diag(np.r_[1 + stretch, np.ones(d - 1)])
    assert not claims.position_maps_offset_only(matrix_powers(a, 4)).holds


@given(st.integers(2, 6).map(lambda h: 2 * h), st.floats(0.05, 1.0))
def test_orthogonal_maps_that_are_not_powers_fail(d, theta):
    """Every map a rotation, A_m = Theta(m^2 theta): orthogonal at each position, but not A_1^m."""
    maps = np.stack([block_diagonal_rotation(np.full(d // 2, m * m * theta)) for m in range(6)])
    assert np.allclose(np.einsum("mji,mjk->mik", maps, maps), np.eye(d))
    assert not claims.position_maps_offset_only(maps).holds
    assert not claims.powers_of_one_orthogonal(maps).holds


@given(seed, st.integers(2, 12), st.integers(3, 12))
def test_random_orthogonal_maps_from_the_identity_fail(s, d, n):
    maps = np.stack([np.eye(d), *(random_orthogonal(d, seed=s + m) for m in range(1, n))])
    assert not claims.position_maps_offset_only(maps).holds


def test_rope_maps_computed_from_their_angles_are_the_powers_of_one_orthogonal_matrix():
    maps = np.stack([rope_matrix(m, 8) for m in range(12)])
    assert claims.position_maps_offset_only(maps).holds
    assert claims.powers_of_one_orthogonal(maps).holds


@given(seed, st.lists(st.floats(0.05, 3.1), min_size=1, max_size=4), st.integers(0, 3), n_positions)
def test_maps_built_from_a_rotation_form_pass_both_checks(s, angles, n_signs, n):
    """A_m = P diag(R(m phi_j), eps_i^m) P^T, each map from its own angles m phi_j, never as a power."""
    signs = np.array([(-1.0) ** i for i in range(n_signs)])
    p = random_orthogonal(2 * len(angles) + n_signs, seed=s)

    def inner(m):
        block = np.zeros((len(p), len(p)))
        block[: 2 * len(angles), : 2 * len(angles)] = block_diagonal_rotation(m * np.asarray(angles))
        block[2 * len(angles):, 2 * len(angles):] = np.diag(signs**m)
        return p @ block @ p.T

    maps = np.stack([inner(m) for m in range(n)])
    assert claims.position_maps_offset_only(maps).holds
    assert claims.powers_of_one_orthogonal(maps).holds


def stretched(d, s):
    """An invertible matrix that is not orthogonal: a random orthogonal one with axes stretched by 0.8 to 1.25."""
    return random_orthogonal(d, seed=s) @ np.diag(np.random.default_rng(s).uniform(0.8, 1.25, d))


@given(seed, st.integers(2, 10), st.integers(3, 12))
def test_keys_through_g_to_the_n_and_queries_through_its_inverse_transpose_see_only_the_offset(s, d, n):
    g = stretched(d, s)
    keys, queries = matrix_powers(g, n), matrix_powers(np.linalg.inv(g).T, n)
    for m, k in [(0, n - 1), (n - 1, 0), (n // 2, n // 3)]:  # B_m^T A_k = G^(k - m), an independent product
        np.testing.assert_allclose(queries[m].T @ keys[k], np.linalg.matrix_power(g, k - m), atol=1e-9)
    assert claims.position_maps_offset_only(queries, keys).holds
    assert not claims.powers_of_one_orthogonal(keys).holds
    assert not claims.position_maps_offset_only(keys).holds  # the same G^n for queries and keys fails


@given(seed, st.integers(2, 10), n_positions)
def test_an_invertible_start_folds_in_and_the_maps_are_not_powers(s, d, n):
    """A_m = U^m A_0 with A_0 invertible: scores see only the offset, yet A_0 is not the identity."""
    maps = matrix_powers(random_orthogonal(d, seed=s), n) @ stretched(d, s + 1)
    assert claims.position_maps_offset_only(maps).holds
    assert not claims.powers_of_one_orthogonal(maps).holds


@given(seed, st.integers(2, 10), n_positions)
def test_a_singular_start_gives_offset_only_scores_and_no_orthogonal_map(s, d, n):
    kept = np.diag((np.arange(d) < d // 2).astype(float))  # keeps half the coordinates, zeroes the rest
    for maps in (matrix_powers(random_orthogonal(d, seed=s), n) @ kept, np.zeros((n, d, d))):
        assert claims.position_maps_offset_only(maps).holds
        assert not claims.powers_of_one_orthogonal(maps).holds
        assert np.all(np.abs(np.einsum("mji,mjk->mik", maps, maps) - np.eye(d)).max(axis=(1, 2)) >= 1 - 1e-12)


def test_the_powers_check_needs_two_maps():
    with pytest.raises(ValueError, match="N >= 2"):
        claims.powers_of_one_orthogonal(np.eye(3)[None])


@given(seed, width)
def test_a_random_orthogonal_matrix_is_rotations_of_planes_in_some_basis(s, d):
    check = claims.rotation_form_holds(random_orthogonal(d, seed=s))
    assert check.holds, check


@given(seed, st.integers(2, 12))
def test_a_matrix_that_is_not_orthogonal_has_no_rotation_form(s, d):
    a = np.random.default_rng(s).standard_normal((d, d)) / np.sqrt(d)
    assert not claims.rotation_form_holds(a).holds


@given(seed, st.lists(st.floats(0.1, 3.0), min_size=1, max_size=3), st.integers(0, 2))
def test_repeated_angles_and_fixed_directions_are_recovered(s, angles, n_fixed):
    """The same angle twice (a 4-dimensional eigenspace) and kept or flipped directions, in a random basis."""
    angles = np.r_[angles, angles[:1]]
    inner = np.zeros((2 * len(angles) + n_fixed,) * 2)
    inner[: 2 * len(angles), : 2 * len(angles)] = block_diagonal_rotation(angles)
    inner[2 * len(angles):, 2 * len(angles):] = np.diag([(-1.0) ** i for i in range(n_fixed)])
    p = random_orthogonal(len(inner), seed=s)
    a = p @ inner @ p.T
    assert claims.rotation_form_holds(a).holds
    np.testing.assert_allclose(np.sort(rotation_form(a).angles), np.sort(angles), atol=1e-9)


def test_a_half_turn_passes_the_rotation_form_check():
    assert claims.rotation_form_holds(-np.eye(2)).holds  # R(pi) reads as two flipped directions


def test_the_chapter_defaults_hold():
    assert claims.rotation_difference_sample().holds


def orthogonal_on_half(d: int, n: int, s: int) -> np.ndarray:
    """Maps that turn the first half of the coordinates by U^m (U orthogonal) and multiply the rest by 2^m."""
    half = d // 2
    maps = np.zeros((n, d, d))
    maps[:, :half, :half] = matrix_powers(random_orthogonal(half, seed=s), n)
    maps[:, half:, half:] = 2.0 ** np.arange(n)[:, None, None] * np.eye(d - half)
    return maps


@given(seed, st.integers(2, 10), st.integers(3, 12))
def test_maps_orthogonal_on_a_subspace_alone_see_only_the_offset_there_and_are_not_orthogonal(s, d, n):
    maps = orthogonal_on_half(d, n, s)
    on_the_half = np.diag((np.arange(d) < d // 2).astype(float))  # q and k with zeros in the second half
    assert claims.position_maps_offset_only(maps @ on_the_half).holds
    assert not claims.position_maps_offset_only(maps).holds
    assert not claims.powers_of_one_orthogonal(maps).holds


@given(seed, width, st.integers(1, 10))
def test_in_the_rotation_basis_the_block_maps_give_the_scores_of_the_powers(s, d, n):
    check = claims.scores_in_rotation_basis(random_orthogonal(d, seed=s), n_positions=n, seed=s)
    assert check.holds, check


@given(seed, st.integers(2, 10))
def test_a_matrix_that_is_not_orthogonal_gives_other_scores_in_the_basis_found(s, d):
    a = np.random.default_rng(s).standard_normal((d, d)) / np.sqrt(d)
    assert not claims.scores_in_rotation_basis(a, n_positions=4, seed=s).holds


@given(st.integers(1, 64).map(lambda h: 2 * h), st.sampled_from([100.0, 10_000.0, 500_000.0]))
def test_ropes_theta_1_is_in_rotation_form_with_the_identity_basis(d, base):
    check = claims.rope_in_rotation_form(d, base)
    assert check.holds, check


def test_the_half_layouts_theta_1_is_not_in_rotation_form_with_the_identity_basis(monkeypatch):
    monkeypatch.setattr(claims, "apply_rope", lambda x, positions, base: apply_rope(x, positions, base=base,
                                                                                   layout="half"))
    assert not claims.rope_in_rotation_form(8).holds
