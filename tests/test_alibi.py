"""ALiBi: the paper's slopes (against BLOOM's code in transformers) and a bias that depends only on the distance."""

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from transformers.models.bloom.modeling_bloom import build_alibi_tensor

from posenc.alibi import alibi_bias, alibi_slopes
from posenc.scores import toeplitz_deviation


@given(n=st.integers(1, 64))
def test_slopes_are_distinct_and_between_zero_and_one(n):
    slopes = alibi_slopes(n)
    assert slopes.shape == (n,) and len(set(slopes)) == n
    assert np.all((slopes > 0) & (slopes < 1))


@pytest.mark.verifies("thm-alibi-toeplitz")
@given(n=st.integers(1, 40), heads=st.integers(1, 16))
def test_every_heads_bias_matrix_is_toeplitz(n, heads):
    bias = alibi_bias(n, alibi_slopes(heads))
    assert bias.shape == (heads, n, n)
    assert all(toeplitz_deviation(b) == 0.0 for b in bias)


@pytest.mark.parametrize("heads", [3, 6, 8, 12, 16, 40])
def test_alibi_slopes_equal_blooms(heads):
    blooms = build_alibi_tensor(torch.ones(1, 2), heads, torch.float64)[:, 0, 1].numpy()  # slope x position 1
    np.testing.assert_allclose(alibi_slopes(heads), blooms, rtol=1e-6)  # BLOOM computes the slopes in float32
