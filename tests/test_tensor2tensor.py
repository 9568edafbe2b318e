"""The sinusoidal table as tensor2tensor builds it: its ladder and its sin | cos halves."""

from __future__ import annotations

import numpy as np
import pytest

from posenc import tensor2tensor
from posenc.sinusoidal import frequencies


def test_the_timing_ladder_runs_from_one_to_exactly_one_over_the_base():
    ladder = tensor2tensor.timing_frequencies(64)
    assert ladder[0] == 1.0 and ladder[-1] == pytest.approx(1e-4, rel=1e-13)
    assert frequencies(64)[-1] > 1.3e-4  # the paper's ladder stops short of 1/base
    table = tensor2tensor.timing_signal(50, 8)
    np.testing.assert_allclose(table[:, :4] ** 2 + table[:, 4:] ** 2, 1.0, rtol=1e-15)  # (j, j + d/2): one angle
