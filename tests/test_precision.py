"""Rounding to bfloat16, float16 and float32 as torch does, and angles held in them."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from posenc.precision import angles_in_precision, round_to


@pytest.mark.parametrize("dtype", ["bfloat16", "float16", "float32"])
def test_angles_in_precision_are_what_torch_computes_in_that_precision(dtype):
    kind = getattr(torch, dtype)
    positions = torch.arange(0, 8192, 7).to(kind)  # integer positions cast to the format
    theta = torch.tensor([500_000.0 ** (-2 * j / 64) for j in range(32)], dtype=torch.float64).to(kind)
    in_torch = (positions[:, None] * theta[None, :]).double().numpy()
    np.testing.assert_array_equal(angles_in_precision(np.arange(0, 8192, 7), 64, 500_000.0, dtype), in_torch)


@given(values=st.lists(st.floats(-6e4, 6e4, width=32), min_size=1, max_size=40),
       dtype=st.sampled_from(["bfloat16", "float16", "float32"]))
def test_round_to_rounds_as_torch_converts(values, dtype):
    expected = torch.tensor(values, dtype=torch.float32).to(getattr(torch, dtype)).double().numpy()
    np.testing.assert_array_equal(round_to(values, dtype), expected)
