"""xPos: RoPE at position zero, and a factor per pair that decays behind the query."""

from __future__ import annotations

import numpy as np

from posenc import xpos
from posenc.rotary import apply_rope


def test_xpos_is_rope_at_position_zero_and_decays_behind_the_query():
    x = np.random.default_rng(2).standard_normal((1, 16))
    np.testing.assert_array_equal(xpos.xpos(x, [0.0]), apply_rope(x, [0.0]))
    zeta = xpos.xpos_zeta(16)
    assert np.all((zeta > 0) & (zeta < 1)) and np.all(np.diff(zeta) > 0)
    scale = xpos.xpos_scale([512.0], 16)[0] * xpos.xpos_scale([0.0], 16, role="key")[0]
    np.testing.assert_allclose(scale, np.repeat(zeta, 2), rtol=1e-15)  # distance B: one factor zeta_j per pair
