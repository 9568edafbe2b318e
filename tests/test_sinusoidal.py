"""The sinusoidal ladder: the public formulas of the frequencies and the table, PE(p)·PE(q) from the offset, the
shift matrix moving and composing, and the lecture's similarity numbers (the four terms of a score and the count of
farther offsets that score higher are defined and checked on the page of chapter 3)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc.sinusoidal import (
    frequencies,
    position_vectors,
    shift_matrix,
    similarity,
    sinusoidal_table,
    wavelengths,
)

even_d = st.integers(1, 64).map(lambda h: 2 * h)
position = st.integers(-5000, 5000)
small_even_d = st.integers(1, 32).map(lambda h: 2 * h)
bases = st.floats(2.0, 1e6)


def test_table_rows_interleave_sine_and_cosine():
    table = sinusoidal_table(50, 8)
    theta = frequencies(8)
    for p in (0, 1, 49):
        for j in range(4):
            assert table[p, 2 * j] == pytest.approx(np.sin(p * theta[j]), abs=1e-15)
            assert table[p, 2 * j + 1] == pytest.approx(np.cos(p * theta[j]), abs=1e-15)
    assert table.shape == (50, 8)


@given(p=position, q=position, d=even_d)
def test_dot_product_of_two_positions_is_the_sum_of_cosines_of_their_offset(p, q, d):
    pe = position_vectors([p, q], d)
    assert pe[0] @ pe[1] == pytest.approx(np.sum(np.cos(frequencies(d) * (q - p))), abs=1e-9)


@given(k=st.integers(-500, 500), d=even_d)
def test_shift_matrix_moves_every_position_by_k_and_composes(k, d):
    shifted = sinusoidal_table(40, d) @ shift_matrix(k, d).T  # row p: M_k PE(p)
    np.testing.assert_allclose(shifted, position_vectors(np.arange(40) + k, d), atol=1e-9)
    np.testing.assert_allclose(shift_matrix(3, d) @ shift_matrix(k, d), shift_matrix(k + 3, d), atol=1e-10)


@pytest.mark.parametrize(("d", "lecture"), [(16, 0.936), (64, 0.966), (128, 0.970)])
def test_the_lecture_similarity_of_positions_12_and_13_is_reproduced(d, lecture):
    assert round(float(similarity(12, [13], d)[0] / (d / 2)), 3) == lecture


@given(d=small_even_d, base=bases)
def test_ladder_runs_from_one_radian_down_by_a_fixed_factor(d, base):
    theta = frequencies(d, base)
    assert theta[0] == 1.0
    assert theta[-1] == pytest.approx(base ** (-(d - 2) / d), rel=1e-12)
    np.testing.assert_allclose(theta[1:] / theta[:-1], base ** (-2 / d), rtol=1e-12)
    lam = wavelengths(d, base)
    assert lam[0] == pytest.approx(2 * np.pi) and lam[-1] < 2 * np.pi * base
