"""The sinusoidal table as tensor2tensor builds it: its ladder, base^(-j/(d/2 - 1)), and its sin | cos halves."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc import tensor2tensor
from posenc.rotary import interleaved_to_half


@pytest.mark.verifies("thm-t2t-half")
@given(n=st.integers(1, 64), d=st.sampled_from([4, 8, 64, 128]), base=st.sampled_from([100.0, 10_000.0]))
def test_the_timing_signal_is_the_interleaved_table_in_the_half_layout(n, d, base):
    ladder = np.exp(-np.log(base) * np.arange(d // 2) / (d // 2 - 1))  # base^(-j/(d/2 - 1)), from the code
    angles = np.outer(np.arange(n), ladder)
    interleaved = np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(n, d)  # sin, cos side by side
    np.testing.assert_allclose(tensor2tensor.timing_signal(n, d, base), interleaved[:, interleaved_to_half(d)],
                               atol=1e-13)  # the ladder's last bit, times positions below 64
