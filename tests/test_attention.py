"""Attention cannot see order: Attention(PX) = P Attention(X)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc import attention as att


@given(n=st.integers(1, 9), d=st.integers(1, 12), seed=st.integers(0, 2**32 - 1))
def test_self_attention_is_permutation_equivariant(n, d, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d))
    w_q, w_k, w_v = (rng.standard_normal((d, d)) for _ in range(3))
    p = att.permutation_matrix(rng.permutation(n))
    np.testing.assert_allclose(att.self_attention(p @ x, w_q, w_k, w_v),
                               p @ att.self_attention(x, w_q, w_k, w_v), atol=1e-12)


def test_softmax_survives_huge_scores():
    np.testing.assert_allclose(att.softmax(np.array([1000.0, 1000.0])), [0.5, 0.5])


def test_permutation_matrix_reorders_rows_and_rejects_non_permutations():
    x = np.arange(6.0).reshape(3, 2)
    np.testing.assert_array_equal(att.permutation_matrix([2, 0, 1]) @ x, x[[2, 0, 1]])
    with pytest.raises(ValueError, match="permutation of 0..2"):
        att.permutation_matrix([0, 0, 1])


@given(n=st.integers(1, 20), seed=st.integers(0, 2**32 - 1))
def test_a_causal_head_with_equal_scores_averages_the_values_it_sees(n, seed):
    rng = np.random.default_rng(seed)
    k, v = rng.standard_normal((2, n, 4))
    averages = [v[: m + 1].mean(axis=0) for m in range(n)]
    np.testing.assert_allclose(att.attention(np.zeros((n, 4)), k, v, att.causal_mask(n)), averages, atol=1e-12)
