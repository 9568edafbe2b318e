"""Attention cannot see order: Attention(PX) = P Attention(X)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc import attention as att
from posenc import claims


@given(n=st.integers(1, 9), d=st.integers(1, 12), seed=st.integers(0, 2**32 - 1))
def test_self_attention_is_permutation_equivariant(n, d, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d))
    w_q, w_k, w_v = (rng.standard_normal((d, d)) for _ in range(3))
    p = att.permutation_matrix(rng.permutation(n))
    np.testing.assert_allclose(att.self_attention(p @ x, w_q, w_k, w_v),
                               p @ att.self_attention(x, w_q, w_k, w_v), atol=1e-12)


@given(seed=st.integers(0, 10_000))
def test_claim_check_reports_equivariance(seed):
    assert claims.permutation_equivariance(n=6, d=8, seed=seed).holds


@pytest.mark.parametrize("seed", range(3))
def test_torch_multihead_attention_is_permutation_equivariant(seed):
    assert claims.permutation_equivariance_torch(n=6, d=8, heads=2, seed=seed).holds


def test_causal_mask_breaks_equivariance():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((5, 4))
    p = att.permutation_matrix([4, 3, 2, 1, 0])
    mask = att.causal_mask(5)

    def head(x):
        return att.attention(x, x, x, mask=mask)

    assert np.max(np.abs(head(p @ x) - p @ head(x))) > 1e-3


def test_softmax_rows_are_probability_vectors_and_masked_entries_get_zero():
    weights = att.attention_weights(np.eye(3), np.eye(3), mask=att.causal_mask(3))
    np.testing.assert_allclose(weights.sum(axis=-1), 1.0)
    assert np.all(weights[np.triu_indices(3, 1)] == 0)


def test_softmax_survives_huge_scores():
    np.testing.assert_allclose(att.softmax(np.array([1000.0, 1000.0])), [0.5, 0.5])


def test_permutation_matrix_reorders_rows_and_rejects_non_permutations():
    x = np.arange(6.0).reshape(3, 2)
    np.testing.assert_array_equal(att.permutation_matrix([2, 0, 1]) @ x, x[[2, 0, 1]])
    with pytest.raises(ValueError, match="permutation of 0..2"):
        att.permutation_matrix([0, 0, 1])


@pytest.mark.parametrize("layers", [1, 3])
def test_a_stack_of_transformer_blocks_is_permutation_equivariant(layers):
    assert claims.permutation_equivariance_encoder(n=6, d=8, layers=layers, seed=layers).holds
