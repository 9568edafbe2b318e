"""The sinusoidal table as tensor2tensor builds it: its ladder and its sin | cos halves."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc import tensor2tensor
from posenc.rotary import interleaved_to_half
from posenc.sinusoidal import frequencies


def test_the_timing_ladder_runs_from_one_to_exactly_one_over_the_base():
    ladder = tensor2tensor.timing_frequencies(64)
    assert ladder[0] == 1.0 and ladder[-1] == pytest.approx(1e-4, rel=1e-13)
    assert frequencies(64)[-1] > 1.3e-4  # the paper's ladder stops short of 1/base
    table = tensor2tensor.timing_signal(50, 8)
    np.testing.assert_allclose(table[:, :4] ** 2 + table[:, 4:] ** 2, 1.0, rtol=1e-15)  # (j, j + d/2): one angle


@pytest.mark.verifies("thm-t2t-half")
@given(n=st.integers(1, 64), d=st.sampled_from([4, 8, 64, 128]), base=st.sampled_from([100.0, 10_000.0]))
def test_the_timing_signal_is_the_interleaved_table_in_the_half_layout(n, d, base):
    ladder = np.exp(-np.log(base) * np.arange(d // 2) / (d // 2 - 1))  # base^(-j/(d/2 - 1)), from the code
    angles = np.outer(np.arange(n), ladder)
    interleaved = np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(n, d)  # sin, cos side by side
    np.testing.assert_allclose(tensor2tensor.timing_signal(n, d, base), interleaved[:, interleaved_to_half(d)],
                               atol=1e-13)  # the ladder's last bit, times positions below 64
