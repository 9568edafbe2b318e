"""Chapter 4's "Why rotation?": position maps whose scores see only the offset are powers of one orthogonal
matrix, and an orthogonal matrix is rotations of planes (and +-1 entries) in a suitable orthonormal basis."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc import claims
from posenc.geometry import (
    block_diagonal_rotation,
    matrix_powers,
    random_orthogonal,
    rotation_form,
)
from posenc.rotary import rope_matrix
from posenc.scores import score_matrix, toeplitz_deviation
from posenc.sinusoidal import frequencies

seed = st.integers(0, 10_000)
width = st.integers(1, 12)
n_positions = st.integers(2, 40)


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


# ---- the offset-only claim: powers of an orthogonal matrix pass, anything else fails


@given(seed, width, n_positions)
def test_powers_of_an_orthogonal_matrix_give_scores_that_see_only_the_offset(s, d, n):
    check = claims.position_maps_offset_only(matrix_powers(random_orthogonal(d, seed=s), n))
    assert check.holds, check


@given(seed, width, n_positions)
def test_the_score_matrix_of_orthogonal_powers_is_toeplitz_for_any_query_and_key(s, d, n):
    maps = matrix_powers(random_orthogonal(d, seed=s), n)
    q, k = np.random.default_rng(s).standard_normal((2, d))
    assert toeplitz_deviation(score_matrix(maps @ q, maps @ k)) < 1e-13 * n * d


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


def test_rope_is_a_family_of_powers():
    maps = np.stack([rope_matrix(m, 8) for m in range(12)])
    np.testing.assert_allclose(maps, matrix_powers(rope_matrix(1, 8), 12), atol=1e-12)
    assert claims.position_maps_offset_only(maps).holds


# ---- the rotation form of an orthogonal matrix


@given(seed, width)
def test_a_random_orthogonal_matrix_is_rotations_of_planes_in_some_basis(s, d):
    check = claims.rotation_form_holds(random_orthogonal(d, seed=s))
    assert check.holds, check


@given(seed, width)
def test_the_form_has_angles_strictly_between_zero_and_pi_and_signs_that_make_the_determinant(s, d):
    a = random_orthogonal(d, seed=s)
    form = rotation_form(a)
    assert 2 * len(form.angles) + len(form.signs) == d
    assert np.all((form.angles > 0) & (form.angles < np.pi))
    assert set(form.signs) <= {-1.0, 1.0}
    assert np.prod(form.signs) == round(float(np.linalg.det(a)))
    assert len(form.signs) % 2 == d % 2  # an odd width always keeps or flips one direction


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


@pytest.mark.parametrize("d", [2, 8, 64])
def test_ropes_own_matrix_gives_back_the_frequency_ladder(d):
    form = rotation_form(rope_matrix(1, d))
    np.testing.assert_allclose(np.sort(form.angles), np.sort(frequencies(d)), rtol=1e-9)
    assert len(form.signs) == 0


def test_half_turns_and_the_identity_are_plus_and_minus_one_entries():
    assert list(rotation_form(np.eye(3)).signs) == [1.0, 1.0, 1.0]
    assert list(rotation_form(np.diag([1.0, -1.0])).signs) == [-1.0, 1.0]
    assert claims.rotation_form_holds(-np.eye(2)).holds  # R(pi) reads as two flipped directions


def test_chapter_4_states_and_checks_why_rotation():
    import nbformat
    from conftest import ROOT

    nb = nbformat.read(str(ROOT / "chapters" / "04_rotation_not_addition.ipynb"), as_version=4)
    prose = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert "## Why rotation?" in prose and ":label: thm-rotation-forced" in prose
    assert prose.index("## Why rotation?") < prose.index("(sec-rope-explorer)=")
    assert code.count("claims.position_maps_offset_only(matrix_powers(orthogonal") == 1  # it passes here ...
    assert code.count("claims.position_maps_offset_only(matrix_powers(generic") == 1  # ... and fails here
    assert "claims.rotation_form_holds(orthogonal)" in code and "claims.rotation_form_holds(generic)" in code
    assert sum(len(c.source.split()) for c in nb.cells if c.cell_type == "markdown") <= 3800
