"""Toeplitz and circulant structure of score matrices."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from posenc.scores import (
    circulant,
    circulant_deviation,
    repeated_token_scores,
    toeplitz,
    toeplitz_deviation,
)

row = st.lists(st.integers(-9, 9), min_size=2, max_size=8)


@given(first=row)
def test_every_circulant_matrix_is_toeplitz(first):
    c = circulant(first)
    assert toeplitz_deviation(c) == 0.0
    assert circulant_deviation(c) == 0.0


def test_a_toeplitz_matrix_need_not_be_circulant():
    t = toeplitz([1, 2, 3], [1, 4, 5])
    assert toeplitz_deviation(t) == 0.0
    assert circulant_deviation(t) > 0


def test_repeated_token_scores_have_constant_diagonals_and_q_dot_k_on_the_main_one():
    q, k = np.random.default_rng(3).standard_normal((2, 16))
    s = repeated_token_scores(q, k, 12)
    assert toeplitz_deviation(s) < 1e-12
    np.testing.assert_allclose(np.diag(s), q @ k / 4)  # offset 0: no rotation left, q.k/sqrt(16)


def test_random_scores_are_not_toeplitz():
    assert toeplitz_deviation(np.random.default_rng(0).standard_normal((5, 5))) > 0.1
