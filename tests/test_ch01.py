"""Chapter 1, *Attention sees a set*: its claims, under many inputs."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc.book.claims import ch01 as claims


@given(seed=st.integers(0, 10_000))
def test_claim_check_reports_equivariance(seed):
    assert claims.permutation_equivariance(n=6, d=8, seed=seed).holds


@pytest.mark.parametrize("seed", range(3))
def test_torch_multihead_attention_is_permutation_equivariant(seed):
    assert claims.permutation_equivariance_torch(n=6, d=8, heads=2, seed=seed).holds


@pytest.mark.parametrize("layers", [1, 3])
def test_a_stack_of_transformer_blocks_is_permutation_equivariant(layers):
    assert claims.permutation_equivariance_encoder(n=6, d=8, layers=layers, seed=layers).holds


@given(n=st.integers(2, 9), seed=st.integers(0, 10_000))
def test_a_causal_mask_breaks_permutation_equivariance(n, seed):
    """The check fails with the mask for every permutation it draws (never the identity), and holds without it."""
    assert not claims.permutation_equivariance(n=n, d=8, seed=seed, causal=True).holds
    assert claims.permutation_equivariance(n=n, d=8, seed=seed, causal=False).holds
