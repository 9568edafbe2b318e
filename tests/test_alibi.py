"""ALiBi: the paper's slopes (against BLOOM's code in transformers) and a bias that depends only on the distance."""

import math

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


def test_bias_is_minus_slope_times_distance():
    np.testing.assert_array_equal(alibi_bias(3, [0.25])[0], [[0, -0.25, -0.5], [-0.25, 0, -0.25], [-0.5, -0.25, 0]])


@pytest.mark.verifies("thm-alibi-toeplitz")
@given(n=st.integers(1, 40), heads=st.integers(1, 16))
def test_every_heads_bias_matrix_is_toeplitz(n, heads):
    bias = alibi_bias(n, alibi_slopes(heads))
    assert bias.shape == (heads, n, n)
    assert all(toeplitz_deviation(b) == 0.0 for b in bias)


@given(heads=st.integers(3, 64).filter(lambda h: not math.log2(h).is_integer()))
def test_the_first_added_slope_lies_above_the_base_slopes_and_the_rest_between_them(heads):
    slopes = alibi_slopes(heads)
    c = 2 ** int(math.log2(heads))  # the largest power of two below heads
    base, added = slopes[:c], slopes[c:]
    assert len(added) == heads - c and added[0] > base.max()
    for slope in added[1:]:  # strictly between two neighbouring base slopes
        assert np.any((base[1:] < slope) & (slope < base[:-1]))


@pytest.mark.parametrize("heads", [3, 6, 8, 12, 16, 40])
def test_alibi_slopes_equal_blooms(heads):
    blooms = build_alibi_tensor(torch.ones(1, 2), heads, torch.float64)[:, 0, 1].numpy()  # slope x position 1
    np.testing.assert_allclose(alibi_slopes(heads), blooms, rtol=1e-6)  # BLOOM computes the slopes in float32
