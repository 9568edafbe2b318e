"""The causal linear recurrence against its unrolled sum over the matrices W_out A^k W_in."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc.recurrence import linear_recurrence


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 12), d_in=st.integers(1, 4), d_state=st.integers(1, 5),
       d_out=st.integers(1, 4))
def test_the_recurrence_is_the_sum_of_its_kernels_over_earlier_tokens(seed, n, d_in, d_state, d_out):
    rng = np.random.default_rng(seed)
    x, w_in = rng.standard_normal((n, d_in)), rng.standard_normal((d_state, d_in))
    w_out = rng.standard_normal((d_out, d_state))
    a = rng.standard_normal((d_state, d_state)) / (2 * np.sqrt(d_state))
    kernel = [w_out @ np.linalg.matrix_power(a, k) @ w_in for k in range(n)]  # W_out A^k W_in
    expected = np.array([sum(kernel[m - j] @ x[j] for j in range(m + 1)) for m in range(n)])
    np.testing.assert_allclose(linear_recurrence(x, a, w_in, w_out), expected, rtol=1e-9, atol=1e-12)


def test_shapes_that_do_not_chain_are_refused():
    with pytest.raises(ValueError, match="linear_recurrence: shapes do not chain"):
        linear_recurrence(np.ones((3, 2)), np.eye(2), np.ones((2, 3)), np.ones((1, 2)))
