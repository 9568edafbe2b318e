"""xPos: the score of a pair is the paper's formula in the offset, RoPE's turn times a factor per pair that decays
behind the query, wherever the pair sits."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc import xpos
from posenc.geometry import rotation_2d


@pytest.mark.verifies("thm-xpos-offset")
@given(m=st.integers(-2000, 2000), n=st.integers(-2000, 2000), shift=st.integers(-2000, 2000),
       d=st.sampled_from([8, 64]), gamma=st.sampled_from([0.1, 0.4, 1.0, 3.0]), seed=st.integers(0, 10_000))
def test_xpos_scores_are_the_papers_offset_formula_wherever_the_pair_sits(m, n, shift, d, gamma, seed):
    q, k = np.random.default_rng(seed).standard_normal((2, 1, d))
    options = {"scale_base": 4096.0, "gamma": gamma}

    def score(a, b):
        return xpos.xpos(q, [a], **options)[0] @ xpos.xpos(k, [b], role="key", **options)[0]

    zeta = (np.arange(0, d, 2) / d + gamma) / (1 + gamma)  # the paper's zeta_j
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    formula = sum(zeta[j] ** ((m - n) / 4096.0) * q[0, 2 * j:2 * j + 2] @ rotation_2d((n - m) * theta[j])
                  @ k[0, 2 * j:2 * j + 2] for j in range(d // 2))
    tolerance = 1e-13 * d * (1 + abs(m) + abs(n) + abs(shift)) * (1 + abs(formula))  # round-off of the angles
    assert abs(score(m, n) - formula) < tolerance and abs(score(m + shift, n + shift) - formula) < tolerance
