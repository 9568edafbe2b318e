"""The sinusoidal ladder: the table's definition, the offset identity and the shift matrix M_k."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc import claims
from posenc.sinusoidal import (
    frequencies,
    position_vectors,
    shift_matrix,
    sinusoidal_table,
    wavelengths,
)

even_d = st.integers(1, 64).map(lambda h: 2 * h)
position = st.integers(-5000, 5000)


def test_frequencies_follow_the_public_formula():
    d = 16
    np.testing.assert_allclose(frequencies(d), [10000.0 ** (-2 * j / d) for j in range(d // 2)], rtol=1e-15)
    assert frequencies(d).shape == (8,)
    np.testing.assert_allclose(frequencies(4, base=100.0), [1.0, 0.1])


def test_ladder_ends_one_radian_and_about_one_over_base():
    theta = frequencies(64)
    assert theta[0] == 1.0
    assert 1e-4 < theta[-1] < 1.4e-4
    np.testing.assert_allclose(theta[1:] / theta[:-1], theta[1] / theta[0])  # geometric
    np.testing.assert_allclose(wavelengths(64)[[0, -1]], 2 * np.pi / theta[[0, -1]])


def test_table_rows_interleave_sine_and_cosine():
    table = sinusoidal_table(50, 8)
    theta = frequencies(8)
    for p in (0, 1, 49):
        for j in range(4):
            assert table[p, 2 * j] == pytest.approx(np.sin(p * theta[j]), abs=1e-15)
            assert table[p, 2 * j + 1] == pytest.approx(np.cos(p * theta[j]), abs=1e-15)
    assert table.shape == (50, 8)


@given(p=position, q=position, d=even_d)
def test_sinusoidal_dot_product_depends_only_on_offset(p, q, d):
    assert claims.sinusoidal_offset(p, [q], d).holds


@given(p=st.integers(0, 3000), q=st.integers(0, 3000), shift=st.integers(0, 3000), d=even_d)
def test_shifting_both_positions_keeps_the_dot_product(p, q, shift, d):
    a = position_vectors([p, q], d)
    b = position_vectors([p + shift, q + shift], d)
    assert a[0] @ a[1] == pytest.approx(b[0] @ b[1], abs=1e-9)


@given(k=st.integers(-2000, 2000), d=even_d)
def test_shift_matrix_moves_every_position_by_k(k, d):
    assert claims.sinusoidal_shift(k, n_positions=40, d=d).holds


@given(k=st.integers(-500, 500), d=even_d)
def test_shift_matrix_is_a_rotation_and_composes(k, d):
    m = shift_matrix(k, d)
    np.testing.assert_allclose(m.T @ m, np.eye(d), atol=1e-12)
    np.testing.assert_allclose(shift_matrix(3, d) @ m, shift_matrix(k + 3, d), atol=1e-10)
